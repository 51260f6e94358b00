// Runs inside JMeter's GUI as its jsr223.init.file (bin/sampler-screenshots): once the plan is open,
// either (h2bench.shots=tabs) selects the h2bench sampler named h2bench.shots.sampler and paints
// each of its tabs into a PNG, or (h2bench.shots=waterfall) starts the test, waits for its page
// loads and paints the h2bench Waterfall listener with the last one selected. Nodes and tabs are
// found by class and name, not by screen position, so the pictures come out the same on any display.
// Exits JMeter: 0 when every picture was written, 1 otherwise.
import java.awt.Component
import java.awt.Container
import java.awt.event.ActionEvent
import java.awt.image.BufferedImage
import javax.imageio.ImageIO
import javax.swing.JList
import javax.swing.JTabbedPane
import javax.swing.SwingUtilities
import javax.swing.tree.TreePath
import org.apache.jmeter.gui.GuiPackage
import org.apache.jmeter.gui.action.ActionNames
import org.apache.jmeter.gui.action.ActionRouter
import org.apache.jmeter.testelement.TestElement
import org.apache.jmeter.util.JMeterUtils

File out = new File(props.getProperty('h2bench.shots.dir'))
String shots = props.getProperty('h2bench.shots', 'tabs')
String samplerName = props.getProperty('h2bench.shots.sampler', 'h2 page')
int loads = Integer.parseInt(props.getProperty('h2bench.shots.loads', '2'))
// the sampler's tabs in JMeter 5.6.3's order: Basic and Advanced are JMeter's, HTTP/2 is ours
List<String> tabFiles = ['sampler-basic.png', 'sampler-advanced.png', 'sampler-http2-tab.png']

def waitFor = { String what, int seconds, Closure<Object> probe ->
    long end = System.currentTimeMillis() + seconds * 1000L
    while (System.currentTimeMillis() < end) {
        Object found = probe()
        if (found) {
            return found
        }
        Thread.sleep(100)
    }
    throw new IllegalStateException("no $what within $seconds s")
}
def onEdt = { Closure<Object> step ->
    Object result = null
    SwingUtilities.invokeAndWait { result = step() }
    result
}
def nodeWithGui = { GuiPackage gui, String guiClass, String name ->
    gui.treeModel.getNodesOfType(TestElement).find {
        it.testElement.getPropertyAsString(TestElement.GUI_CLASS) == guiClass && (name == null || it.name == name)
    }
}
def select = { GuiPackage gui, node ->
    onEdt { gui.treeListener.getJTree().setSelectionPath(new TreePath(node.path)) }
    waitFor("editor of ${node.name}", 30) { gui.currentGui?.is(gui.getGui(node.testElement)) }
}
Closure<Object> descendant
descendant = { Component root, Class type ->
    if (type.isInstance(root)) {
        return root
    }
    root instanceof Container ? root.components.findResult { descendant(it, type) } : null
}
// Painted on the event thread after the selection's events: what the window shows, without a screen grab.
def paint = { GuiPackage gui, String file ->
    onEdt {
        def root = gui.mainFrame.rootPane
        def image = new BufferedImage(root.width, root.height, BufferedImage.TYPE_INT_RGB)
        def graphics = image.createGraphics()
        root.printAll(graphics)
        graphics.dispose()
        ImageIO.write(image, 'png', new File(out, file))
    }
    OUT.println("wrote ${new File(out, file)}")
}

Thread.start('h2bench-screenshots') {
    int status = 1
    try {
        GuiPackage gui = waitFor('JMeter GUI', 120) { GuiPackage.getInstance()?.mainFrame?.showing ? GuiPackage.getInstance() : null }
        String wanted = shots == 'tabs' ? 'io.h2bench.gui.Http2SamplerGui' : 'io.h2bench.gui.WaterfallVisualizer'
        def node = waitFor("$wanted in the plan", 120) { nodeWithGui(gui, wanted, shots == 'tabs' ? samplerName : null) }
        onEdt { gui.mainFrame.setBounds(0, 0, 1400, 900); gui.mainFrame.validate() }
        if (shots == 'tabs') {
            select(gui, node)
            JTabbedPane tabs = onEdt { descendant(gui.currentGui, JTabbedPane) }
            if (tabs.tabCount != tabFiles.size()) {
                throw new IllegalStateException("the sampler has ${tabs.tabCount} tabs, expected ${tabFiles.size()}")
            }
            tabFiles.eachWithIndex { String file, int index ->
                onEdt { tabs.selectedIndex = index }
                paint(gui, file)
            }
        } else {
            onEdt { ActionRouter.getInstance().doActionNow(new ActionEvent(gui.mainFrame, 0, ActionNames.ACTION_START)) }
            select(gui, node)
            JList list = onEdt { descendant(gui.currentGui, JList) }
            waitFor("$loads page loads in the listener", 300) { list.model.size >= loads && !JMeterUtils.isTestRunning() }
            // the last load: the first one of a fresh JVM pays for class loading
            onEdt { list.selectedIndex = list.model.size - 1 }
            paint(gui, 'waterfall-listener.png')
        }
        status = 0
    } catch (Throwable failure) {
        log.error('h2bench screenshots failed', failure)
        OUT.println("h2bench screenshots failed: $failure")
    }
    System.exit(status)
}
