package io.h2bench.sampler;

import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.HeaderField;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.report.ProtocolNote;
import java.net.MalformedURLException;
import java.net.URL;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.util.JMeterUtils;

/**
 * Writes what the client measured into JMeter's {@link HTTPSampleResult}. The definitions, as they
 * appear in JMeter's listeners and JTL files:
 * <ul>
 *   <li>{@code timeStamp}: the request was handed to the client; {@code elapsed}: the last body byte
 *       arrived (or the failure happened), on the same monotonic clock. Durations are differences of
 *       truncated millisecond readings, as in JMeter's own sampler (unbiased on average).</li>
 *   <li>{@code Connect}: TCP connect plus TLS handshake of a connection opened for this sample; 0 when
 *       the sample reused a connection (at least 1 ms when new). Time queued for a connection is never part of it.</li>
 *   <li>TLS handshake (the sampler data's line, and the JMeter variables of {@link TlsColumns} for a
 *       JTL): the part of {@code Connect} from the TLS connection's opening to the handshake's end, as
 *       DevTools' "SSL" inside "Initial connection"; 0 in clear text and on a reused connection; over QUIC all
 *       of {@code Connect}.</li>
 *   <li>{@code Latency}: until the response began (status line, or the HEADERS frame); always
 *       &lt;= elapsed. It includes Connect and any queueing, as in JMeter's own HTTP sampler.</li>
 *   <li>{@code sentBytes} / {@code bytes}: bytes written to / read from the TCP socket for this
 *       sample, TLS records and HTTP/2 framing included (attribution rule: the client's
 *       {@code WireConnection}).</li>
 *   <li>{@code bodySize}: response payload bytes as sent by the server (not decompressed, no chunk or
 *       frame headers); {@code headersSize}: {@code bytes - bodySize}, i.e. the header block plus all
 *       framing, TLS and connection setup overhead charged to this sample.</li>
 * </ul>
 */
final class ResultMapper {

    private static final boolean START_STAMPS = JMeterUtils.getPropDefault("sampleresult.timestamp.start", false);

    private ResultMapper() {
    }

    static void timesAndSizes(ExchangeResult exchange, SampleResult result) {
        long start = exchange.startNanos();
        long connect = connectMillis(exchange);
        long latency = Math.max(connect, span(start, exchange.latencyNanos()));
        long elapsed = Math.max(latency, span(start, exchange.elapsedNanos()));
        // setStampAndTime takes an end time unless JMeter is set to stamp samples with start times.
        long stamp = START_STAMPS ? exchange.startMillis() : exchange.startMillis() + elapsed;
        result.setStampAndTime(stamp, elapsed);
        result.setConnectTime(connect);
        result.setLatency(latency);
        result.setSentBytes(exchange.sentBytes());
        result.setBytes(exchange.receivedBytes());
        result.setBodySize(exchange.bodyBytes());
        result.setHeadersSize((int) Math.max(0, exchange.receivedBytes() - exchange.bodyBytes()));
    }

    private static long connectMillis(ExchangeResult exchange) {
        long connect = span(exchange.startNanos(), exchange.connectNanos());
        if (exchange.newConnection() && exchange.connectNanos() > 0) {
            // A connection opened for this sample shows at least 1 ms, never the 0 of a reused one.
            connect = Math.max(1, connect);
        }
        return connect;
    }

    /**
     * The TLS handshake's part of {@link #connectMillis}: its tail, so that the two add up on the same
     * millisecond marks; at least 1 ms when there was a handshake (as Connect), never more than Connect.
     */
    static long tlsMillis(ExchangeResult exchange) {
        long connect = connectMillis(exchange);
        if (exchange.tlsNanos() <= 0 || connect == 0) {
            return 0;
        }
        long tcp = span(exchange.startNanos(), exchange.connectNanos() - exchange.tlsNanos());
        return Math.min(connect, Math.max(1, connect - tcp));
    }

    /** Status, headers and body of a completed response. */
    static void response(ExchangeResult exchange, HTTPSampleResult result, URL url) {
        result.setResponseCode(Integer.toString(exchange.status()));
        String line = exchange.statusLine();
        int reasonAt = line.indexOf(' ', line.indexOf(' ') + 1);
        String message = reasonAt < 0 ? "" : line.substring(reasonAt + 1);
        // RFC 9113 6.8/8.7: a request the server never processed went out twice; the sample spans both.
        result.setResponseMessage(exchange.retried() == null ? message : message + " (" + exchange.retried() + ")");
        StringBuilder headers = new StringBuilder(line).append('\n');
        for (HeaderField field : exchange.responseHeaders()) {
            headers.append(field.name()).append(": ").append(field.value()).append('\n');
        }
        result.setResponseHeaders(headers.toString());
        String contentType = exchange.responseHeader("Content-Type");
        if (contentType != null) {
            result.setContentType(contentType);
            result.setEncodingAndType(contentType);
        }
        result.setResponseData(exchange.body());
        String location = exchange.responseHeader("Location");
        if (exchange.status() >= 300 && exchange.status() < 400 && location != null) {
            try {
                result.setRedirectLocation(new URL(url, location).toExternalForm());
            } catch (MalformedURLException ignored) {
                result.setRedirectLocation(location);
            }
        }
    }

    /**
     * A sample never measures another protocol than the one asked for without saying so: a server that
     * declines the h2c Upgrade answers over HTTP/1.1 (RFC 7540 3.2); with no version set, an https
     * server's ALPN may pick http/1.1; HTTP/3 by Alt-Svc goes over TCP until the origin advertises h3.
     * The response message then says which protocol was used.
     */
    static void noteProtocol(ProtocolMode asked, ExchangeResult exchange, HTTPSampleResult result) {
        if (exchange.answeredByProxy() || refusedH2cTunnel(asked, exchange)) {
            return; // the origin was never reached: no protocol was used with it
        }
        ProtocolNote note = protocolNote(asked, exchange.httpVersion(), exchange.alpn() != null);
        if (note != null) {
            result.setResponseMessage(note.appendTo(result.getResponseMessage()));
        }
    }

    /**
     * h2c by prior knowledge through a proxy goes in a CONNECT tunnel (client.connect.ProxyHop), and the
     * own HTTP/2 reads no HTTP/1.x from an origin: an HTTP/1.x answer is the proxy's refusal of the tunnel.
     */
    private static boolean refusedH2cTunnel(ProtocolMode asked, ExchangeResult exchange) {
        boolean priorKnowledge = (asked == ProtocolMode.H2C || asked == ProtocolMode.HTTP_2)
                && "http".equalsIgnoreCase(exchange.uri().getScheme());
        return priorKnowledge && exchange.status() != 0 && exchange.httpVersion() != null && exchange.httpVersion().startsWith("HTTP/1");
    }

    private static ProtocolNote protocolNote(ProtocolMode asked, String version, boolean negotiated) {
        if (version == null) {
            return null;
        }
        // An https URL's h2c Upgrade is an ALPN offer (client.TcpEngines): no Upgrade was asked for.
        if (asked == ProtocolMode.H2C_UPGRADE && version.startsWith("HTTP/1") && negotiated) {
            return new ProtocolNote("h2c Upgrade on an https URL is h2 by ALPN, the server's ALPN chose http/1.1", version);
        }
        if (asked == ProtocolMode.H2C_UPGRADE && version.startsWith("HTTP/1")) {
            return new ProtocolNote("h2c Upgrade declined by the server", version);
        }
        // HTTP_2 over http is h2c by prior knowledge, and set explicitly over https it fails without h2:
        // HTTP/1 here is only ever the https scheme's ALPN fall-back.
        if (asked == ProtocolMode.HTTP_2 && version.startsWith("HTTP/1")) {
            return new ProtocolNote("HTTP/2 by the https scheme, the server's ALPN chose http/1.1", version);
        }
        if (asked == ProtocolMode.HTTP_3_ALT_SVC && !version.startsWith("HTTP/3")) {
            return new ProtocolNote("HTTP/3 by Alt-Svc, no h3 advertised by this origin yet", version);
        }
        return null;
    }

    /** What the sampler data shows after JMeter's request line: the protocol actually used. */
    static String connectionSummary(ExchangeResult exchange) {
        return "Protocol: " + (exchange.httpVersion() == null ? "none (no response)" : exchange.httpVersion()) + "\n"
                + "ALPN: " + (exchange.alpn() == null ? "none (cleartext or not negotiated)" : exchange.alpn()) + "\n"
                + "Connection: " + connection(exchange) + "\n"
                + "Queued: " + millis(exchange.queuedNanos()) + " ms\n"
                + TlsColumns.samplerDataLine(tlsMillis(exchange))
                + EngineColumn.samplerDataLine(exchange);
    }

    /** Which connection carried the exchange; none when connecting failed (id 0 is never a connection's). */
    private static String connection(ExchangeResult exchange) {
        if (exchange.connectionId() == 0) {
            return "none (no connection was established)";
        }
        return "#" + exchange.connectionId() + (exchange.newConnection() ? " (new)" : " (reused)");
    }

    /** Sampler data of a pushed response: when it was promised, and whether the page used it. */
    static String pushSummary(ExchangeResult push, boolean used) {
        return "Pushed by the server (PUSH_PROMISE) on connection #" + push.connectionId() + "\n"
                + (used ? "Used by the page instead of a request\n" : "Not used by the page\n")
                + "Promised at: " + push.startMillis() + " (epoch ms); complete after " + millis(push.elapsedNanos()) + " ms\n";
    }

    /** A server push as a sub-result of its own, labelled with its URL. */
    static HTTPSampleResult push(ExchangeResult push) {
        HTTPSampleResult result = new HTTPSampleResult();
        result.setSampleLabel(push.uri().toString());
        result.setHTTPMethod(push.method());
        try {
            result.setURL(push.uri().toURL());
        } catch (MalformedURLException | IllegalArgumentException ignored) {
            // A pushed URI always comes from the server's valid :path; nothing to do if not.
        }
        timesAndSizes(push, result);
        result.setSamplerData("Pushed by the server (PUSH_PROMISE) on connection #" + push.connectionId() + "\n");
        if (push.failed()) {
            result.setResponseCode("Non HTTP response code: push failed");
            result.setResponseMessage(push.failureMessage());
            result.setSuccessful(false);
            return result;
        }
        response(push, result, null);
        result.setSuccessful(push.status() >= 200 && push.status() < 400);
        return result;
    }

    /**
     * A duration in whole milliseconds as JMeter's own sampler takes it: the difference of two
     * truncated clock readings, here the millisecond marks of the monotonic clock at
     * {@code startNanos} and at {@code startNanos + nanos}. Unbiased on average (rounding up added
     * half a millisecond to every sample) and monotonic, so connect &lt;= latency &lt;= elapsed holds.
     */
    static long span(long startNanos, long nanos) {
        return nanos <= 0 ? 0 : Math.floorDiv(startNanos + nanos, 1_000_000) - Math.floorDiv(startNanos, 1_000_000);
    }

    /** For display only (sampler data): a duration to the nearest millisecond. */
    static long millis(long nanos) {
        return nanos <= 0 ? 0 : (nanos + 500_000) / 1_000_000;
    }
}
