package io.h2bench.client.connect;

import io.h2bench.client.exchange.ExchangeRecorder;
import io.h2bench.client.exchange.Http11ResponseReader;
import io.h2bench.client.wire.WireConnection;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Executor;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.ClientConnectionFactory;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/**
 * The {@code CONNECT} exchange on a new TCP connection to the proxy, as HttpClient4 makes it before an
 * https origin: on a 2xx answer the socket becomes the origin's TLS connection (ALPN and all, as
 * without a proxy), whose SNI names the origin; for h2c by prior knowledge, the origin's cleartext
 * HTTP/2 connection, its preface first (curl's {@code --proxytunnel}). A 407 with a Basic challenge is answered with the
 * credentials on the same connection when the proxy keeps it ({@link ProxyHop#sendAgain}). Any other
 * answer is the exchange's response, as HttpClient4 reports a refused tunnel: the proxy's status,
 * headers and body; the connection then closes. Its bytes are the connection's, so the first exchange
 * on it counts them, as it counts its TLS handshake.
 */
final class ProxyTunnel extends AbstractConnection {

    private static final int READ_BYTES = 8 * 1024;

    private final ProxyHop hop;
    private final OriginConnector.Waiting exchange;
    private final Map<String, Object> context;
    private final ClientConnectionFactory toOrigin;
    private final OriginConnector.ConnectFailure failure;
    private final WireConnection wire;
    private final ByteBuffer in = BufferUtil.allocate(READ_BYTES);
    private Answer answer;
    private boolean carriedCredentials;
    private boolean ended;

    ProxyTunnel(EndPoint endPoint, Executor executor, ProxyHop hop, OriginConnector.Waiting exchange, Map<String, Object> context,
                ClientConnectionFactory toOrigin, OriginConnector.ConnectFailure failure, WireConnection wire) {
        super(endPoint, executor);
        this.hop = hop;
        this.exchange = exchange;
        this.context = context;
        this.toOrigin = toOrigin;
        this.failure = failure;
        this.wire = wire;
    }

    @Override
    public void onOpen() {
        super.onOpen();
        sendConnect();
    }

    private void sendConnect() {
        String credentials = hop.authorization();
        carriedCredentials = credentials != null;
        StringBuilder head = new StringBuilder("CONNECT ").append(hop.authority()).append(" HTTP/1.1\r\nHost: ")
                .append(hop.authority()).append("\r\n");
        if (credentials != null) {
            head.append("Proxy-Authorization: ").append(credentials).append("\r\n");
        }
        answer = new Answer();
        getEndPoint().write(Callback.from(this::fillInterested, this::fail),
                ByteBuffer.wrap(head.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII)));
    }

    @Override
    public void onFillable() {
        try {
            while (!ended) {
                if (!in.hasRemaining()) {
                    BufferUtil.clear(in);
                    int read = getEndPoint().fill(in);
                    if (read < 0) {
                        fail(new ClosedChannelException());
                        return;
                    }
                    if (read == 0) {
                        fillInterested();
                        return;
                    }
                }
                if (answer.read(in)) {
                    answered();
                    return;
                }
            }
        } catch (IOException | RuntimeException broken) {
            fail(broken);
        }
    }

    /** The proxy's whole answer to the CONNECT is in. */
    private void answered() {
        ExchangeRecorder.ResponseHead head = answer.head();
        if (head.status() / 100 == 2) {
            hop.sendAgain(head.status(), null, carriedCredentials);
            ended = true;
            openToOrigin();
            return;
        }
        String challenge = head.fields().get(HttpHeader.PROXY_AUTHENTICATE);
        if (hop.sendAgain(head.status(), challenge, carriedCredentials) && answer.keepsAlive()) {
            BufferUtil.clear(in);
            sendConnect();
            return;
        }
        ended = true;
        refused(head, answer.body.toByteArray());
    }

    /** The tunnel is up: the origin's connection (TLS for https) on this socket, its peer (and SNI) the origin, not the proxy. */
    private void openToOrigin() {
        context.put(ClientConnector.REMOTE_SOCKET_ADDRESS_CONTEXT_KEY, InetSocketAddress.createUnresolved(hop.host(), hop.port()));
        try {
            Connection tls = toOrigin.newConnection(getEndPoint(), context);
            getEndPoint().upgrade(tls);
        } catch (IOException | RuntimeException broken) {
            failure.connectFailed(exchange, broken);
            close();
        }
    }

    /** The proxy's answer is the exchange's response, as HttpClient4 reports a refused tunnel; the connect failed. */
    private void refused(ExchangeRecorder.ResponseHead head, byte[] body) {
        ExchangeRecorder recorder = exchange.recorder();
        recorder.attach(wire, true);
        recorder.responseBegun();
        recorder.responseHeaders(head.status(), head.version(), head.fields());
        recorder.responseContent(ByteBuffer.wrap(body));
        recorder.completed(head, null);
        failure.connectFailed(exchange, new IOException("The proxy refused the CONNECT to " + hop.authority() + ": "
                + head.status() + " " + head.reason()));
        close();
    }

    private void fail(Throwable cause) {
        if (ended) {
            return;
        }
        ended = true;
        failure.connectFailed(exchange, new IOException("The proxy " + hop.proxy().host() + ":" + hop.proxy().port()
                + " gave no answer to the CONNECT to " + hop.authority() + " (" + cause + ")", cause));
        close();
    }

    @Override
    public void onClose(Throwable cause) {
        super.onClose(cause);
        if (getEndPoint().getConnection() == this) {
            fail(cause != null ? cause : new ClosedChannelException());
        }
    }

    /** The proxy's response to one CONNECT, its headers as the proxy spelled them (as h1-own's). */
    private final class Answer extends Http11ResponseReader {

        private final ByteArrayOutputStream body = new ByteArrayOutputStream();

        /** Parses what was read; true when the answer is whole. */
        boolean read(ByteBuffer bytes) {
            return parser.parseNext(bytes);
        }

        @Override
        public void startResponse(HttpVersion httpVersion, int code, String text) {
            super.startResponse(httpVersion, code, text);
            // A 2xx answer to CONNECT has no body: the tunnel's bytes follow it (RFC 9110 9.3.6).
            parser.setHeadResponse(code / 100 == 2);
        }

        @Override
        public boolean content(ByteBuffer content) {
            byte[] bytes = new byte[content.remaining()];
            content.get(bytes);
            body.writeBytes(bytes);
            return false;
        }

        @Override
        public void earlyEOF() {
            fail(new ClosedChannelException());
        }

        @Override
        public void badMessage(HttpException bad) {
            fail(new IOException("The proxy's answer to CONNECT is no HTTP response: " + bad.getReason()));
        }
    }
}
