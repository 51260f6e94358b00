package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.gui.ConvertMenu;
import org.apache.jmeter.gui.tree.JMeterTreeModel;
import org.apache.jmeter.gui.tree.JMeterTreeNode;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy;
import org.apache.jmeter.testelement.TestPlan;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The GUI's Tools menu conversion, on a plan tree built without a GUI. */
class ConvertMenuTest {

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
        InProcessJMeter.init();
    }

    @Test
    void shouldReplaceEachHttpRequestByAnH2benchSamplerWithItsFieldsWhenConverting() {
        JMeterTreeModel model = new JMeterTreeModel(new TestPlan());
        HTTPSamplerProxy request = new HTTPSamplerProxy("HttpClient4");
        request.setName("recorded login");
        request.setProtocol("http");
        request.setDomain("example.test");
        request.setPath("/login");
        request.setMethod("POST");
        request.addNonEncodedArgument("user", "a b", "=");
        request.setAutoRedirects(true);
        JMeterTreeNode node = new JMeterTreeNode(request, model);
        model.insertNodeInto(node, (JMeterTreeNode) model.getRoot(), 0);

        int converted = ConvertMenu.convert(model);

        assertThat(converted).isEqualTo(1);
        assertThat(node.getUserObject()).isInstanceOf(Http2Sampler.class);
        Http2Sampler sampler = (Http2Sampler) node.getUserObject();
        assertThat(sampler.getName()).isEqualTo("recorded login");
        assertThat(sampler.getPath()).isEqualTo("/login");
        assertThat(sampler.getMethod()).isEqualTo("POST");
        assertThat(sampler.getAutoRedirects()).isTrue();
        assertThat(sampler.getArguments().getArgument(0).getValue()).isEqualTo("a b");
        assertThat(sampler.getPropertyAsString("TestElement.gui_class")).isEqualTo("io.h2bench.gui.Http2SamplerGui");
        assertThat(sampler.getHttpVersionSet()).isNull();
        assertThat(model.getNodesOfType(HTTPSamplerProxy.class)).isEmpty();
    }
}
