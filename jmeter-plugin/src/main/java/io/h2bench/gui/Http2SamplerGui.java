package io.h2bench.gui;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.profile.BrowserPreset;
import io.h2bench.sampler.Http2Sampler;
import java.awt.BorderLayout;
import javax.swing.JPanel;
import javax.swing.JTabbedPane;
import org.apache.jmeter.protocol.http.control.gui.HttpTestSampleGui;
import org.apache.jmeter.testelement.TestElement;

/**
 * JMeter wiring for {@link Http2Sampler}: JMeter's own HTTP Request editor (URL, parameters, body,
 * files, timeouts, embedded resources) plus an "HTTP/2" tab holding {@link Http2SamplerPanel}
 * (HTTP version, browser preset, connections, push).
 */
public class Http2SamplerGui extends HttpTestSampleGui {

    private static final long serialVersionUID = 1L;
    static final String LABEL = "h2bench HTTP/2 Request";

    // No initializer on purpose: the super constructor creates it through createTabbedConfigPane().
    private Http2SamplerPanel http2Panel;

    @Override
    protected JTabbedPane createTabbedConfigPane() {
        JTabbedPane tabs = super.createTabbedConfigPane();
        JPanel tab = new JPanel(new BorderLayout());
        tab.add(panel(), BorderLayout.NORTH);
        tabs.addTab("HTTP/2", tab);
        return tabs;
    }

    private Http2SamplerPanel panel() {
        if (http2Panel == null) {
            http2Panel = new Http2SamplerPanel();
        }
        return http2Panel;
    }

    @Override
    public TestElement makeTestElement() {
        return new Http2Sampler();
    }

    @Override
    public void configure(TestElement element) {
        super.configure(element);
        if (element instanceof Http2Sampler sampler) {
            ProtocolMode mode;
            try {
                mode = sampler.getHttpVersionSet();
            } catch (IllegalArgumentException unknown) {
                // A value the combo cannot show (a typo, a ${variable}); the sample reports it.
                mode = null;
            }
            panel().setValues(mode, presetOf(sampler), sampler.getMaxConnectionsPerOrigin(), sampler.isAcceptPush());
        }
    }

    @Override
    public void modifyTestElement(TestElement element) {
        super.modifyTestElement(element);
        if (element instanceof Http2Sampler sampler) {
            sampler.setHttpVersion(panel().mode());
            sampler.setBrowserPreset(panel().browserPreset());
            sampler.setMaxConnectionsPerOrigin(panel().maxConnectionsPerOrigin());
            sampler.setAcceptPush(panel().acceptPush());
        }
    }

    @Override
    public void clearGui() {
        super.clearGui();
        panel().setValues(null, BrowserPreset.CHROME, 6, true);
    }

    /** The sampler's preset; null for a value the combo cannot show (the sample reports it). */
    private static BrowserPreset presetOf(Http2Sampler sampler) {
        try {
            return sampler.getBrowserPreset();
        } catch (IllegalArgumentException unknown) {
            return null;
        }
    }

    @Override
    public String getLabelResource() {
        return "h2bench_http2_request";
    }

    @Override
    public String getStaticLabel() {
        return LABEL;
    }
}
