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

    /** Display names, in the order of {@link ProtocolMode}'s constants. */
    private static final String[] VERSION_NAMES = {
        "HTTP/1.1",
        "HTTP/2 (ALPN over https, h2 first; h2c over http)",
        "HTTP/2 cleartext (prior knowledge)",
        "HTTP/2 cleartext (Upgrade)",
    };

    private final JComboBox<String> version = new JComboBox<>(VERSION_NAMES);
    private final JTextField maxConnections = new JTextField(4);
    private final JCheckBox acceptPush = new JCheckBox("Accept HTTP/2 server push (report pushes as sub-results)");

    public Http2SamplerPanel() {
        super(new GridLayout(3, 1));
        setBorder(BorderFactory.createTitledBorder("h2bench: protocol and connections"));
        add(row(new JLabel("HTTP version:"), version));
        add(row(new JLabel("Max HTTP/1.1 connections per origin:"), maxConnections));
        add(row(acceptPush));
        setValues(ProtocolMode.HTTP_2, 6, true);
    }

    public void setValues(ProtocolMode mode, int maxPerOrigin, boolean push) {
        version.setSelectedIndex(mode.ordinal());
        maxConnections.setText(Integer.toString(maxPerOrigin));
        acceptPush.setSelected(push);
    }

    public ProtocolMode mode() {
        return ProtocolMode.values()[Math.max(0, version.getSelectedIndex())];
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
