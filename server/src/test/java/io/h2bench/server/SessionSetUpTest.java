package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import org.junit.jupiter.api.Test;

/**
 * The server's half of an h2 session's set-up leaves in one TLS record, as nginx sends it: its SETTINGS,
 * WINDOW_UPDATE and the ACK of the client's SETTINGS. Jetty wrote them in two, the ACK on its own, one
 * more record and TCP segment before every new connection's first response (issue 42). Counted on the
 * wire by a relay that reads the record headers; the client speaks TLS 1.2, so that no record after the
 * handshake (TLS 1.3's session tickets) is counted but the server's HTTP/2 frames.
 */
class SessionSetUpTest extends SharedServerTest {

    private static final int SETTINGS = 0x4;

    @Test
    void shouldSendItsSettingsAndTheAckInOneRecordWhenAClientOpensAnH2Session() throws Exception {
        try (TlsRecordRelay relay = new TlsRecordRelay(server.port(Listener.H2));
             SSLSocket socket = h2Socket(relay.port())) {
            int handshake = relay.recordLengths().size();
            RawH2 h2 = RawH2.over(socket);

            assertThat(h2.awaitFrames(SETTINGS, 2, Duration.ofSeconds(10))).as("the server's SETTINGS and its ACK").isTrue();
            List<Integer> records = relay.recordLengths();
            assertThat(records.subList(handshake, records.size())).as("records after the handshake").hasSize(1);
        }
    }

    @Test
    void shouldAnswerARequestInTwoRecordsWhenItCameWithThePreface() throws Exception {
        try (TlsRecordRelay relay = new TlsRecordRelay(server.port(Listener.H2));
             SSLSocket socket = h2Socket(relay.port())) {
            int handshake = relay.recordLengths().size();
            RawH2 h2 = RawH2.over(socket);
            h2.frame(RawH2.HEADERS, RawH2.END_STREAM | RawH2.END_HEADERS, 1, RawH2.get("/"));
            h2.flush();

            assertThat(h2.awaitEndOfStream(1, Duration.ofSeconds(10))).as("the page's response").isTrue();
            List<Integer> records = relay.recordLengths();
            // The set-up, then the response's HEADERS and DATA (863 bytes): what nginx sends curl in one write.
            assertThat(records.subList(handshake, records.size())).as("records after the handshake").hasSizeLessThanOrEqualTo(2);
        }
    }

    /** A TLS 1.2 connection through the relay, offering only h2, its handshake done. */
    private static SSLSocket h2Socket(int port) throws IOException {
        SSLSocket socket = (SSLSocket) TestClients.trustAll().getSocketFactory().createSocket("127.0.0.1", port);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setProtocols(new String[] {"TLSv1.2"});
        parameters.setApplicationProtocols(new String[] {"h2"});
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        assertThat(socket.getApplicationProtocol()).isEqualTo("h2");
        return socket;
    }
}
