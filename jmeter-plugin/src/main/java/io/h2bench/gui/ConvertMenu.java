package io.h2bench.gui;

import io.h2bench.sampler.Http2Sampler;
import java.util.List;
import javax.swing.JMenu;
import javax.swing.JMenuItem;
import javax.swing.JOptionPane;
import javax.swing.MenuElement;
import org.apache.jmeter.gui.GuiPackage;
import org.apache.jmeter.gui.plugin.MenuCreator;
import org.apache.jmeter.gui.tree.JMeterTreeModel;
import org.apache.jmeter.gui.tree.JMeterTreeNode;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerProxy;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.JMeterProperty;
import org.apache.jmeter.testelement.property.PropertyIterator;

/**
 * Tools › "Convert HTTP Requests to h2bench samplers": the GUI twin of
 * {@code io.h2bench.convert.PlanConverter}. Every HTTP Request of the open plan (recorded ones too)
 * becomes an h2bench sampler with all its properties; no HTTP version is set, so http:// gets
 * HTTP/1.1 and https:// HTTP/2. Registered as a JMeter {@link MenuCreator} service.
 */
public class ConvertMenu implements MenuCreator {

    static final String LABEL = "Convert HTTP Requests to h2bench samplers";

    @Override
    public JMenuItem[] getMenuItemsAtLocation(MENU_LOCATION location) {
        if (location != MENU_LOCATION.TOOLS) {
            return new JMenuItem[0];
        }
        JMenuItem item = new JMenuItem(LABEL);
        item.addActionListener(event -> convertOpenPlan());
        return new JMenuItem[] {item};
    }

    private static void convertOpenPlan() {
        GuiPackage gui = GuiPackage.getInstance();
        gui.updateCurrentNode();
        int converted = convert(gui.getTreeModel());
        gui.setDirty(converted > 0);
        gui.updateCurrentGui();
        JOptionPane.showMessageDialog(gui.getMainFrame(), "Converted " + converted + " HTTP Request sampler(s).",
                LABEL, JOptionPane.INFORMATION_MESSAGE);
    }

    /** Replaces every HTTP Request in the tree by an h2bench sampler; returns how many. */
    public static int convert(JMeterTreeModel model) {
        List<JMeterTreeNode> requests = model.getNodesOfType(HTTPSamplerProxy.class);
        for (JMeterTreeNode node : requests) {
            node.setUserObject(converted((TestElement) node.getUserObject()));
            model.nodeChanged(node);
        }
        return requests.size();
    }

    private static Http2Sampler converted(TestElement request) {
        Http2Sampler sampler = new Http2Sampler();
        for (PropertyIterator properties = request.propertyIterator(); properties.hasNext();) {
            JMeterProperty property = properties.next();
            sampler.setProperty((JMeterProperty) property.clone());
        }
        sampler.setProperty(TestElement.GUI_CLASS, Http2SamplerGui.class.getName());
        sampler.setProperty(TestElement.TEST_CLASS, Http2Sampler.class.getName());
        return sampler;
    }

    @Override
    public JMenu[] getTopLevelMenus() {
        return new JMenu[0];
    }

    @Override
    public boolean localeChanged(MenuElement menu) {
        return false;
    }

    @Override
    public void localeChanged() {
        // The label is English only, as the sampler's.
    }
}
