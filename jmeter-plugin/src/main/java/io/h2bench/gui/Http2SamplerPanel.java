package io.h2bench.gui;

import io.h2bench.client.ProtocolMode;
import java.awt.FlowLayout;
import java.awt.GridLayout;
import javax.swing.BorderFactory;
import javax.swing.JCheckBox;
import javax.swing.JComboBox;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JTextField;
import java.awt.Component;

/** The h2bench settings as plain Swing: HTTP version, HTTP/1.1 connections per origin, push. */
public class Http2SamplerPanel extends JPanel {

    private static final long serialVersionUID = 1L;

    /** Display names: "by scheme" (no version set), then {@link ProtocolMode}'s constants in order. */
    private static final String[] VERSION_NAMES = {
        "By scheme: HTTP/1.1 for http://, HTTP/2 (ALPN, else HTTP/1.1) for https://",
        "HTTP/1.1",
        "HTTP/2 (https: h2 over ALPN or an error; http: h2c)",
        "HTTP/2 cleartext (prior knowledge)",
        "HTTP/2 cleartext (Upgrade)",
        "HTTP/3 (QUIC on the URL's port number, UDP)",
        "HTTP/3 by Alt-Svc (HTTP/2 over TLS first, then h3 where advertised)",
    };

    private final JComboBox<String> version = new JComboBox<>(VERSION_NAMES);
    private final JTextField maxConnections = new JTextField(4);
    private final JCheckBox acceptPush = new JCheckBox("Accept HTTP/2 server push (report pushes as sub-results)");

    public Http2SamplerPanel() {
        super(new GridLayout(3, 1));
        setBorder(BorderFactory.createTitledBorder("h2bench: protocol and connections"));
        version.setToolTipText("HTTP/2 over http:// is h2c by prior knowledge; 'By scheme' never picks h2c or h3. "
                + "HTTP/3 needs https:// and no proxy.");
        add(row(new JLabel("HTTP version:"), version));
        add(row(new JLabel("Max HTTP/1.1 connections per origin:"), maxConnections));
        add(row(acceptPush));
        setValues(null, 6, true);
    }

    /** @param mode the version set in the sampler; null: none, chosen by the URL's scheme */
    public void setValues(ProtocolMode mode, int maxPerOrigin, boolean push) {
        version.setSelectedIndex(mode == null ? 0 : mode.ordinal() + 1);
        maxConnections.setText(Integer.toString(maxPerOrigin));
        acceptPush.setSelected(push);
    }

    /** The chosen version; null for "by scheme". */
    public ProtocolMode mode() {
        int index = version.getSelectedIndex();
        return index <= 0 ? null : ProtocolMode.values()[index - 1];
    }

    /** The typed number, or 6 (what browsers use) when it is not a positive number. */
    public int maxConnectionsPerOrigin() {
        try {
            int value = Integer.parseInt(maxConnections.getText().trim());
            return value > 0 ? value : 6;
        } catch (NumberFormatException notANumber) {
            return 6;
        }
    }

    public boolean acceptPush() {
        return acceptPush.isSelected();
    }

    private static JPanel row(Component... components) {
        JPanel row = new JPanel(new FlowLayout(FlowLayout.LEFT));
        for (Component component : components) {
            row.add(component);
        }
        return row;
    }
}
