package io.h2bench.gui;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.profile.BrowserPreset;
import java.awt.Component;
import java.awt.FlowLayout;
import java.awt.GridLayout;
import javax.swing.BorderFactory;
import javax.swing.DefaultListCellRenderer;
import javax.swing.JCheckBox;
import javax.swing.JComboBox;
import javax.swing.JLabel;
import javax.swing.JList;
import javax.swing.JPanel;
import javax.swing.JTextField;

/** The h2bench settings as plain Swing: HTTP version, browser preset, HTTP/1.1 connections per origin, push. */
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
    private final JComboBox<BrowserPreset> preset = new JComboBox<>(BrowserPreset.values());
    private final JTextField maxConnections = new JTextField(4);
    private final JCheckBox acceptPush = new JCheckBox("Accept HTTP/2 server push (report pushes as sub-results)");

    public Http2SamplerPanel() {
        super(new GridLayout(4, 1));
        setBorder(BorderFactory.createTitledBorder("h2bench: protocol and connections"));
        version.setToolTipText("HTTP/2 over http:// is h2c by prior knowledge; 'By scheme' never picks h2c or h3. "
                + "HTTP/3 needs https:// and no proxy.");
        add(row(new JLabel("HTTP version:"), version));
        preset.setRenderer(new DefaultListCellRenderer() {
            @Override
            public Component getListCellRendererComponent(JList<?> list, Object value, int index, boolean selected, boolean focus) {
                Object shown = value instanceof BrowserPreset chosen ? chosen.displayName() : value;
                return super.getListCellRendererComponent(list, shown, index, selected, focus);
            }
        });
        preset.setToolTipText("The HTTP/2 SETTINGS and windows and the QUIC transport parameters a new connection "
                + "announces: a browser's, or Jetty's own (no HTTP/3)");
        add(row(new JLabel("Browser preset:"), preset));
        add(row(new JLabel("Max HTTP/1.1 connections per origin:"), maxConnections));
        add(row(acceptPush));
        setValues(null, BrowserPreset.CHROME, 6, true);
    }

    /**
     * @param mode    the version set in the sampler; null: none, chosen by the URL's scheme
     * @param browser the preset; null (a value the combo cannot show) shows Chrome, the default
     */
    public void setValues(ProtocolMode mode, BrowserPreset browser, int maxPerOrigin, boolean push) {
        version.setSelectedIndex(mode == null ? 0 : mode.ordinal() + 1);
        preset.setSelectedItem(browser == null ? BrowserPreset.CHROME : browser);
        maxConnections.setText(Integer.toString(maxPerOrigin));
        acceptPush.setSelected(push);
    }

    /** The chosen version; null for "by scheme". */
    public ProtocolMode mode() {
        int index = version.getSelectedIndex();
        return index <= 0 ? null : ProtocolMode.values()[index - 1];
    }

    public BrowserPreset browserPreset() {
        return (BrowserPreset) preset.getSelectedItem();
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
