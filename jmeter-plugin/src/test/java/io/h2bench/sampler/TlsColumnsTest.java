package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.gui.PageSamples;
import io.h2bench.report.WaterfallRow;
import io.h2bench.server.Listener;
import java.util.Arrays;
import java.util.List;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterVariables;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The TLS handshake where JMeter keeps it: the sampler data's line (for listeners and the waterfall)
 * and the variables a JTL saves through {@code sample_variables}, from real samples.
 */
class TlsColumnsTest {

    private SamplerFixture fixture;
    private JMeterVariables variables;

    @BeforeEach
    void start() throws Exception {
        fixture = new SamplerFixture("tls");
        variables = fixture.freshVariables();
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void shouldSaveNoTlsWhenTheSampleIsClearText() {
        fixture.target(Listener.H1, "/small-text.txt", ProtocolMode.HTTP_1_1);

        SampleResult result = fixture.sampler.sample();

        assertThat(result.getConnectTime()).isPositive();
        assertThat(variables.get(TlsColumns.TLS)).isEqualTo("0");
        assertThat(variables.get(TlsColumns.PARTS)).isEmpty();
    }

    @Test
    void shouldSaveTheHandshakeOnlyForTheSampleThatOpenedTheConnectionWhenTlsConnectionIsReused() {
        fixture.target(Listener.H1_TLS, "/small-text.txt", ProtocolMode.HTTP_1_1);

        SampleResult first = fixture.sampler.sample();
        long firstTls = Long.parseLong(variables.get(TlsColumns.TLS));
        SampleResult reused = fixture.sampler.sample();

        assertThat(firstTls).isPositive().isLessThanOrEqualTo(first.getConnectTime());
        assertThat(first.getSamplerData()).contains("TLS handshake: " + firstTls + " ms");
        assertThat(reused.getConnectTime()).isZero();
        assertThat(variables.get(TlsColumns.TLS)).isEqualTo("0");
    }

    @Test
    void shouldReadTheHandshakeOnlyFromItsOwnLineWhenTheSampleConnected() {
        SampleResult sample = new SampleResult();
        sample.setConnectTime(30);
        sample.setSamplerData("GET https://h2bench.test/\nX-Note: no TLS handshake: 99 ms here\nQueued: 0 ms\n"
                + TlsColumns.samplerDataLine(12) + "Cookie Data:\n");
        SampleResult reused = new SampleResult();
        reused.setSamplerData(TlsColumns.samplerDataLine(12));
        SampleResult other = new SampleResult();
        other.setConnectTime(5);
        other.setSamplerData("GET http://h2bench.test/\n");

        assertThat(TlsColumns.of(sample)).isEqualTo(12);
        assertThat(TlsColumns.of(reused)).as("no Connect, so no handshake").isZero();
        assertThat(TlsColumns.of(other)).isZero();
    }

    @Test
    void shouldSaveTheWholeQuicHandshakeAsTlsWhenHttp3OpensTheConnection() {
        fixture.target(Listener.H2, "/small-text.txt", ProtocolMode.HTTP_3).setPort(fixture.server.h3Port());

        SampleResult result = fixture.sampler.sample();

        assertThat(result.isSuccessful()).as(result.getResponseMessage()).isTrue();
        assertThat(variables.get(TlsColumns.TLS)).isEqualTo(Long.toString(result.getConnectTime()));
        assertThat(result.getConnectTime()).isPositive();
    }

    /** Through a proxy the TLS connection opens after the CONNECT exchange: that round trip stays out of TLS. */
    @Test
    void shouldCountOnlyTheHandshakeAsTlsWhenTheConnectionTunnelsThroughAProxy() throws Exception {
        try (SquidProxy squid = SquidProxy.start(null, null)) {
            for (Listener listener : List.of(Listener.H1_TLS, Listener.H2)) {
                fixture.target(listener, "/small-text.txt", listener == Listener.H2 ? ProtocolMode.HTTP_2 : ProtocolMode.HTTP_1_1);
                fixture.sampler.setProperty(org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase.PROXYHOST, "127.0.0.1");
                fixture.sampler.setProperty(org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase.PROXYPORT, squid.port());

                SampleResult result = fixture.sampler.sample();
                fixture.sampler.threadFinished();

                assertThat(result.isSuccessful()).as(result.getResponseMessage()).isTrue();
                assertThat(Long.parseLong(variables.get(TlsColumns.TLS))).as(listener.id())
                        .isPositive().isLessThanOrEqualTo(result.getConnectTime());
            }
        }
    }

    @Test
    void shouldListEachPartsHandshakeWhenAPageLoadsOverH2() {
        fixture.target(Listener.H2, "/", ProtocolMode.HTTP_2).setImageParser(true);

        SampleResult page = fixture.sampler.sample();
        List<Long> parts = Arrays.stream(variables.get(TlsColumns.PARTS).split(" ")).map(Long::valueOf).toList();

        // The page opened the one connection; its 16 resources went on it as streams.
        assertThat(page.getSubResults()).hasSize(17);
        assertThat(parts).hasSize(17);
        assertThat(parts.get(0)).isPositive().isEqualTo(Long.parseLong(variables.get(TlsColumns.TLS)));
        assertThat(parts.subList(1, 17)).containsOnly(0L);
        List<WaterfallRow> rows = WaterfallRow.of(PageSamples.of(page));
        assertThat(rows.get(0).tlsMillis()).isEqualTo(parts.get(0)).isLessThanOrEqualTo(rows.get(0).connectMillis());
    }
}
