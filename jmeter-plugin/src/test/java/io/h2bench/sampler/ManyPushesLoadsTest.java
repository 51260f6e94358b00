package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.ProtocolMode;
import io.h2bench.server.Listener;
import java.util.ArrayList;
import java.util.List;
import org.apache.jmeter.protocol.http.control.Header;
import org.apache.jmeter.protocol.http.control.HeaderManager;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 15: seed 004's h2-push cell, {@code /articles?count=500} with {@code Prefer-Push: item}, loaded
 * again and again by one user on one connection, as rest-collection.jmx does. The client refuses the
 * pushes it has no room for (all of them when it declines push) with RST_STREAM; the server's rate
 * control used to count those as rapid reset and end the connection with GOAWAY(ENHANCE_YOUR_CALM)
 * while the page's item requests were in flight.
 */
class ManyPushesLoadsTest {

    private static final int ITEMS = 500;

    private SamplerFixture fixture;

    @BeforeEach
    void startServer() throws Exception {
        fixture = new SamplerFixture("h2-push items-500");
    }

    @AfterEach
    void stopServer() {
        fixture.close();
    }

    @Test
    void shouldKeepTheConnectionWhenTheClientRefusesFiveHundredPushes() {
        // Before the fix 6 of 10 such loads failed on an idle machine; the pushes are all refused.
        assertThat(failedLoads(false, 10)).isEmpty();
    }

    @Test
    void shouldLoadEveryItemWhenFiveHundredArePushed() {
        assertThat(failedLoads(true, 5)).isEmpty();
    }

    private List<String> failedLoads(boolean acceptPush, int loads) {
        HeaderManager headers = new HeaderManager();
        headers.add(new Header("Prefer-Push", "item"));
        Http2Sampler sampler = fixture.target(Listener.H2, "/articles?count=" + ITEMS, ProtocolMode.HTTP_2);
        sampler.setImageParser(true);
        sampler.setHeaderManager(headers);
        sampler.setAcceptPush(acceptPush);
        sampler.setResponseTimeout("30000");
        List<String> failures = new ArrayList<>();
        for (int load = 1; load <= loads; load++) {
            SampleResult page = sampler.sample();
            if (!page.isSuccessful() || page.getSubResults().length != ITEMS + 1) {
                String message = page.getResponseMessage();
                failures.add("load " + load + " (" + page.getSubResults().length + " parts): "
                        + message.substring(0, Math.min(400, message.length())));
            }
        }
        return failures;
    }
}
