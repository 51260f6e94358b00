package io.h2bench.gui;

import io.h2bench.report.WaterfallRow;
import java.awt.BorderLayout;
import javax.swing.DefaultListModel;
import javax.swing.JList;
import javax.swing.JScrollPane;
import javax.swing.JSplitPane;
import javax.swing.ListSelectionModel;
import javax.swing.SwingUtilities;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.visualizers.gui.AbstractVisualizer;
import javax.swing.DefaultListCellRenderer;
import java.util.List;

/**
 * The "h2bench Waterfall" listener: pick a sample on the left, see its page load on the right as
 * DevTools' Network panel shows it. Samples are kept in memory as they come, like View Results Tree.
 */
public class WaterfallVisualizer extends AbstractVisualizer {

    private static final long serialVersionUID = 1L;
    /** Bounded, as a listener in a long test must not eat the heap. */
    private static final int MAX_SAMPLES = 500;

    private final DefaultListModel<SampleResult> samples = new DefaultListModel<>();
    private final JList<SampleResult> list = new JList<>(samples);
    private final WaterfallPanel waterfall = new WaterfallPanel();

    public WaterfallVisualizer() {
        setLayout(new BorderLayout());
        add(makeTitlePanel(), BorderLayout.NORTH);
        list.setSelectionMode(ListSelectionModel.SINGLE_SELECTION);
        list.setCellRenderer((view, sample, index, selected, focused) -> new DefaultListCellRenderer()
                .getListCellRendererComponent(view, sample.getSampleLabel() + " (" + sample.getTime() + " ms, "
                        + sample.getSubResults().length + " parts)", index, selected, focused));
        list.addListSelectionListener(event -> {
            SampleResult selected = list.getSelectedValue();
            if (selected != null) {
                waterfall.show(WaterfallRow.of(PageSamples.of(selected)));
            }
        });
        add(new JSplitPane(JSplitPane.HORIZONTAL_SPLIT, new JScrollPane(list), new JScrollPane(waterfall)),
                BorderLayout.CENTER);
    }

    @Override
    public void add(SampleResult sample) {
        SwingUtilities.invokeLater(() -> {
            if (samples.size() >= MAX_SAMPLES) {
                samples.remove(0);
            }
            samples.addElement(sample);
        });
    }

    @Override
    public void clearData() {
        samples.clear();
        waterfall.show(List.of());
    }

    @Override
    public String getLabelResource() {
        return "h2bench_waterfall";
    }

    @Override
    public String getStaticLabel() {
        return "h2bench Waterfall";
    }
}
