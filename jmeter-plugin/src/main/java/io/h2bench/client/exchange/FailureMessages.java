package io.h2bench.client.exchange;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;
import org.eclipse.jetty.http2.ErrorCode;

/** Turns a transport exception into one sentence a tester understands, naming the origin. */
public final class FailureMessages {

    private FailureMessages() {
    }

    /** The stop button's failure, as every engine reports it. */
    public static Throwable stopped(String reason) {
        return new InterruptedIOException(reason);
    }

    /** An HTTP/2 error as Jetty's {@code HTTP2Session} words it, "compression_error/invalid_hpack_block": the code, then why. */
    public static IOException http2(int error, String reason) {
        return new IOException(ErrorCode.toString(error, null) + "/" + reason);
    }

    static String describe(Throwable failure, ExchangeRequest request, String goAway) {
        Throwable cause = unwrap(failure);
        if (goAway != null && !(cause instanceof TimeoutException)) {
            return "The server sent GOAWAY (" + goAway + ") and the connection to " + origin(request.uri())
                    + " ended before the response was complete (" + detail(cause) + ")";
        }
        return describeCause(cause, request);
    }

    private static String detail(Throwable cause) {
        return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }

    private static String describeCause(Throwable cause, ExchangeRequest request) {
        String origin = origin(request.uri());
        String detail = detail(cause);
        if (cause instanceof NoH2OverAlpnException) {
            return cause.getMessage();
        }
        if (request.mode().http3() && !(cause instanceof UnknownHostException) && !(cause instanceof TimeoutException)) {
            // Netty's QUIC and the h3 engine say what failed themselves; a TCP reading of them would mislead.
            String what = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
            return "HTTP/3 " + request.method() + " " + request.uri() + " failed: " + what;
        }
        if (cause instanceof ConnectTimeoutException timeout) {
            String message = "No connection to " + origin + " within " + timeout.millis() + " ms (connect timeout)";
            return timeout.handshakeSilent() ? message + ": the TLS handshake heard nothing from the server for that long" : message;
        }
        if (cause instanceof UnknownHostException) {
            return "Unknown host " + request.uri().getHost() + " (" + detail + ")";
        }
        if (cause instanceof ConnectException || cause instanceof NoRouteToHostException) {
            return "Connection to " + origin + " refused (" + detail + ")";
        }
        if (cause instanceof SocketTimeoutException) {
            return "No connection to " + origin + " in time (" + detail + ")";
        }
        if (cause instanceof TimeoutException) {
            long millis = request.responseTimeout().toMillis();
            return "No response from " + origin + " within " + millis + " ms (response timeout; " + detail + ")";
        }
        if (cause instanceof SSLException) {
            return "TLS handshake with " + origin + " failed (" + detail + ")";
        }
        String mismatch = protocolMismatch(cause, request, origin, detail);
        if (mismatch != null) {
            return mismatch;
        }
        String message = cause.getMessage() == null ? "" : cause.getMessage().toLowerCase(Locale.ROOT);
        if (message.contains("reset") || message.contains("cancel") || message.contains("refused_stream")) {
            return "The server reset the stream before the response was complete (" + detail + ")";
        }
        if (message.contains("goaway") || message.contains("go_away") || message.contains("session")) {
            return "The server closed the HTTP/2 connection (GOAWAY) before the response was complete (" + detail + ")";
        }
        if (cause instanceof EOFException || cause instanceof ClosedChannelException || message.contains("closed")) {
            return "The connection to " + origin + " closed before the response was complete (" + detail + ")";
        }
        return "Request to " + origin + " failed (" + detail + ")";
    }

    /**
     * A cleartext port that speaks another protocol than the one asked for, in a user's words (Jetty's
     * parsers say "invalid_frame_length", "Illegal character CNTL=0x0", "bad response"): an HTTP/1.1
     * reply begins with a "frame" longer than any HTTP/2 peer sends, and an HTTP/2-only server
     * (nghttpd --no-tls) answers an HTTP/1.1 request with its binary SETTINGS frame. Null when neither.
     */
    private static String protocolMismatch(Throwable cause, ExchangeRequest request, String origin, String detail) {
        if (!"http".equalsIgnoreCase(request.uri().getScheme())) {
            return null;
        }
        String chain = messages(cause);
        ProtocolMode mode = request.mode();
        boolean priorKnowledge = mode == ProtocolMode.H2C || mode == ProtocolMode.HTTP_2;
        if (priorKnowledge && chain.contains("invalid_frame_length")) {
            return "The server " + origin + " answered the HTTP/2 connection preface with bytes that are not HTTP/2 (likely "
                    + "HTTP/1.1): it offers no h2c by prior knowledge on this port; pick HTTP/1.1 or h2c Upgrade (" + detail + ")";
        }
        boolean http11 = mode == ProtocolMode.HTTP_1_1 || mode == ProtocolMode.H2C_UPGRADE;
        if (http11 && (chain.contains("Illegal character CNTL=0x0") || chain.contains("bad response"))) {
            return "The server " + origin + " answered with bytes that are not HTTP/1.1 (binary, as the frames of a server "
                    + "speaking only HTTP/2 on this port): pick h2c by prior knowledge (" + detail + ")";
        }
        return null;
    }

    private static String messages(Throwable cause) {
        StringBuilder chain = new StringBuilder();
        for (Throwable link = cause; link != null && chain.length() < 2_000; link = link.getCause()) {
            chain.append(link.getMessage()).append('\n');
        }
        return chain.toString();
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof ExecutionException || cause instanceof CompletionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static String origin(URI uri) {
        int port = uri.getPort() > 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
        return uri.getScheme() + "://" + uri.getHost() + ":" + port;
    }

    /**
     * Raised by this client when no connection was ready within the connect timeout: TCP did not
     * connect in time, or the TLS handshake that followed heard nothing from the server for that long.
     */
    public static final class ConnectTimeoutException extends SocketTimeoutException {
        private final long millis;
        private final boolean handshakeSilent;

        public ConnectTimeoutException(long millis, boolean handshakeSilent) {
            super("connect timeout " + millis + " ms");
            this.millis = millis;
            this.handshakeSilent = handshakeSilent;
        }

        long millis() {
            return millis;
        }

        boolean handshakeSilent() {
            return handshakeSilent;
        }
    }
}
