package io.h2bench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.profile.BrowserPreset;
import io.h2bench.client.profile.ConnectionProfile;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http2.HTTP2Session;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.eclipse.jetty.http2.frames.Frame;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.SettingsFrame;
import org.eclipse.jetty.http2.frames.WindowUpdateFrame;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What a Jetty h2c server receives from the client under each {@link BrowserPreset}: the SETTINGS
 * frame, the connection window its first WINDOW_UPDATE opens, the window of a request's stream; and
 * users of different presets on separate connections.
 */
class BrowserPresetHttp2Test {

    /** Larger than Firefox's 128 KiB SETTINGS window: the response completes only once a stream WINDOW_UPDATE came. */
    private static final int BODY_BYTES = 256 * 1024;

    /** Larger than Jetty's 8 MiB stream and 16 MiB connection windows: the client gives both back on the way. */
    private static final int LARGE_BODY_BYTES = 20 * 1024 * 1024;

    private final List<Frame> received = new ArrayList<>();
    private Server server;
    private URI uri;

    @BeforeEach
    void startServer() throws Exception {
        server = new Server();
        HttpConfiguration config = new HttpConfiguration();
        HTTP2CServerConnectionFactory h2c = new HTTP2CServerConnectionFactory(config);
        // Jetty tells frame listeners of each frame as it parses it, before acting on it.
        h2c.addEventListener(new HTTP2Session.FrameListener() {
            @Override
            public void onIncomingFrame(Session session, Frame frame) {
                synchronized (received) {
                    received.add(frame);
                }
            }
        });
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(config), h2c);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(org.eclipse.jetty.server.Request request, Response response, Callback callback) {
                String query = request.getHttpURI().getQuery();
                int bytes = query != null && query.startsWith("bytes=") ? Integer.parseInt(query.substring(6)) : BODY_BYTES;
                response.write(true, ByteBuffer.allocate(bytes), callback);
                return true;
            }
        });
        server.start();
        uri = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/");
    }

    @AfterEach
    void stopServer() throws Exception {
        server.stop();
    }

    @ParameterizedTest
    @EnumSource(value = BrowserPreset.class, names = {"CHROME", "FIREFOX"})
    void shouldSendTheBrowsersSettingsAndWindowsWhenItsPresetIsChosen(BrowserPreset preset) throws Exception {
        ExchangeResult result = getWith(preset);

        assertThat(result.failureMessage()).isNull();
        assertThat(result.bodyBytes()).isEqualTo(BODY_BYTES);
        BrowserPreset.Http2 expected = preset.http2();
        assertThat(clientSettings()).containsExactlyEntriesOf(expected.settings());
        assertThat(connectionWindow()).isEqualTo(expected.connectionWindow());
        assertThat(firstRequestStreamWindow()).isEqualTo(expected.requestStreamWindow());
    }

    @ParameterizedTest
    @EnumSource(BrowserPreset.class)
    void shouldAnnounceTheSameSettingsInTheUpgradeHeaderAndAfterThePrefaceWhenTheConnectionStartsAsHttp11(BrowserPreset preset)
            throws Exception {
        try (UserConnections user = UserConnections.open()) {
            ExchangeResult result = user.send(ExchangeRequest.get(uri, ProtocolMode.H2C_UPGRADE),
                    ConnectionProfile.DIRECT.withPreset(preset));

            assertThat(result.failureMessage()).isNull();
            assertThat(result.httpVersion()).isEqualTo("HTTP/2.0");
            assertThat(result.bodyBytes()).isEqualTo(BODY_BYTES);
        }
        synchronized (received) {
            List<Map<Integer, Integer>> settings = received.stream()
                    .filter(frame -> frame instanceof SettingsFrame frameSettings && !frameSettings.isReply())
                    .map(frame -> ((SettingsFrame) frame).getSettings()).toList();
            // The Upgrade request's HTTP2-Settings header (RFC 7540 3.2.1), then the preface's SETTINGS frame.
            assertThat(settings).hasSize(2);
            assertThat(settings.get(0)).isNotEmpty().containsExactlyEntriesOf(settings.get(1));
            if (preset.http2() != null) {
                assertThat(settings.get(1)).containsExactlyEntriesOf(preset.http2().settings());
            }
        }
    }

    @Test
    void shouldSendWhatAnUnconfiguredJettyClientSendsOnTheOwnHttp2WhenTheJettyPresetIsChosen() throws Exception {
        // Jetty's HttpClient on its HTTP/2 transport as it comes. The body is larger than both of its
        // windows, so that each side gives them back as it consumes.
        URI large = uri.resolve("/?bytes=" + LARGE_BODY_BYTES);
        HttpClient plain = new HttpClient(new HttpClientTransportOverHTTP2(new HTTP2Client()));
        plain.start();
        Map<Integer, Integer> plainSettings;
        List<String> plainUpdates;
        try {
            Request request = plain.newRequest(large);
            assertThat(new CompletableResponseListener(request, LARGE_BODY_BYTES).send().get().getContent())
                    .hasSize(LARGE_BODY_BYTES);
            plainSettings = clientSettings();
            plainUpdates = windowUpdates();
        } finally {
            plain.stop();
        }
        synchronized (received) {
            received.clear();
        }

        ExchangeResult result;
        try (UserConnections user = UserConnections.open()) {
            result = user.send(ExchangeRequest.get(large, ProtocolMode.H2C), ConnectionProfile.DIRECT.withPreset(BrowserPreset.JETTY));
        }

        assertThat(result.failureMessage()).isNull();
        assertThat(result.bodyBytes()).isEqualTo(LARGE_BODY_BYTES);
        assertThat(result.engine()).isEqualTo("h2-own");
        assertThat(clientSettings()).containsExactlyEntriesOf(plainSettings);
        assertThat(windowUpdates()).isEqualTo(plainUpdates).hasSizeGreaterThan(2);
    }

    @Test
    void shouldOpenAConnectionPerPresetWhenOneUserSwitchesPresets() throws Exception {
        try (UserConnections user = UserConnections.open()) {
            ExchangeResult chrome = user.send(ExchangeRequest.get(uri, ProtocolMode.H2C), ConnectionProfile.DIRECT);
            ExchangeResult firefox = user.send(ExchangeRequest.get(uri, ProtocolMode.H2C),
                    ConnectionProfile.DIRECT.withPreset(BrowserPreset.FIREFOX));
            ExchangeResult chromeAgain = user.send(ExchangeRequest.get(uri, ProtocolMode.H2C), ConnectionProfile.DIRECT);

            assertThat(firefox.connectionId()).isNotEqualTo(chrome.connectionId());
            assertThat(firefox.newConnection()).isTrue();
            assertThat(chromeAgain.connectionId()).isEqualTo(chrome.connectionId());
            assertThat(chromeAgain.newConnection()).isFalse();
        }
        synchronized (received) {
            assertThat(received.stream().filter(frame -> frame instanceof SettingsFrame settings && !settings.isReply()))
                    .hasSize(2);
        }
    }

    private ExchangeResult getWith(BrowserPreset preset) throws InterruptedException {
        try (UserConnections user = UserConnections.open()) {
            return user.send(ExchangeRequest.get(uri, ProtocolMode.H2C), ConnectionProfile.DIRECT.withPreset(preset));
        }
    }

    /** The client's SETTINGS, in the order they came in its frame. */
    private Map<Integer, Integer> clientSettings() {
        synchronized (received) {
            return received.stream().filter(frame -> frame instanceof SettingsFrame settings && !settings.isReply())
                    .map(frame -> ((SettingsFrame) frame).getSettings()).findFirst().orElseThrow();
        }
    }

    /**
     * The client's WINDOW_UPDATEs in the order the server parsed them: "connection" or "request"
     * (the first request's stream; its number differs between clients) with the delta, exact before
     * the request and in whole MiB after: Jetty's flow control gives back what was consumed once it
     * passes half a window (a whole number of MiB here), which the last DATA frame overshoots by a
     * part of a frame whose size the server chooses as it writes.
     */
    private List<String> windowUpdates() {
        synchronized (received) {
            int request = received.stream().filter(HeadersFrame.class::isInstance).mapToInt(frame -> ((HeadersFrame) frame).getStreamId())
                    .findFirst().orElseThrow();
            List<String> updates = new ArrayList<>();
            boolean requestSent = false;
            for (Frame frame : received) {
                requestSent |= frame instanceof HeadersFrame;
                if (frame instanceof WindowUpdateFrame update) {
                    int delta = update.getWindowDelta();
                    String stream = update.getStreamId() == 0 ? "connection " : update.getStreamId() == request ? "request " : "other ";
                    updates.add(stream + (requestSent ? delta / (1024 * 1024) + " MiB" : delta));
                }
            }
            return updates;
        }
    }

    /** RFC 9113's 65,535 plus what the WINDOW_UPDATEs on stream 0 before the first request added. */
    private long connectionWindow() {
        long window = BrowserPreset.Http2.DEFAULT_WINDOW;
        synchronized (received) {
            for (Frame frame : received) {
                if (frame instanceof HeadersFrame) {
                    break;
                }
                if (frame instanceof WindowUpdateFrame update && update.getStreamId() == 0) {
                    window += update.getWindowDelta();
                }
            }
        }
        return window;
    }

    /**
     * The first request stream's window: the SETTINGS' one, plus the first WINDOW_UPDATE on that
     * stream when it is a raise (it came before any DATA was consumed, so above the 64 KiB Jetty's
     * flow control gives back at a time).
     */
    private long firstRequestStreamWindow() {
        Map<Integer, Integer> settings = clientSettings();
        long window = settings.getOrDefault(BrowserPreset.Http2.INITIAL_WINDOW_SIZE, BrowserPreset.Http2.DEFAULT_WINDOW);
        synchronized (received) {
            int stream = received.stream().filter(HeadersFrame.class::isInstance).mapToInt(frame -> ((HeadersFrame) frame).getStreamId())
                    .findFirst().orElseThrow();
            return window + received.stream()
                    .filter(frame -> frame instanceof WindowUpdateFrame update && update.getStreamId() == stream)
                    .mapToInt(frame -> ((WindowUpdateFrame) frame).getWindowDelta())
                    .filter(delta -> delta > window / 2)
                    .findFirst().orElse(0);
        }
    }
}
