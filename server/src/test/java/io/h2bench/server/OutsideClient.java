package io.h2bench.server;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/**
 * A client that shares no code with h2bench's server (curl, nghttp, h2load, gtlsclient, Go's
 * net/http, Chromium), run against h2bench's listeners by {@link OutsideClientsInteropTest}: the
 * other direction of the interop matrix (issue 39).
 */
interface OutsideClient {

    /** The modes of the matrix's second table; the names are the plugin matrix's {@code InteropMode} names. */
    enum Mode {
        H1("h1", Listener.H1, "HTTP/1.1"),
        H1_TLS("h1 TLS", Listener.H1_TLS, "HTTP/1.1"),
        H2("h2", Listener.H2, "HTTP/2"),
        H2C("h2c prior", Listener.H2C, "HTTP/2"),
        H2C_UPGRADE("h2c Upgrade", Listener.H2C, "HTTP/2"),
        /** On UDP, the h3 listener; {@code listener} is null. */
        H3("h3", null, "HTTP/3");

        final String label;
        final Listener listener;
        /** What the client must report for every exchange of a cell that offers the mode. */
        final String protocol;

        Mode(String label, Listener listener, String protocol) {
            this.label = label;
            this.listener = listener;
            this.protocol = protocol;
        }

        /** {@code scheme://127.0.0.1:port} of the listener the mode's requests go to. */
        URI base(H2BenchServer server) {
            return listener == null ? server.h3BaseUri() : server.baseUri(listener);
        }
    }

    /** One request of a cell: a method, a path, and the body it sends (null: none). */
    record Ask(String method, String path, byte[] body) {

        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    /**
     * One exchange as the client reported it.
     *
     * @param status            the status code, or its class where the client reports no more ("2xx", h2load)
     * @param protocol          HTTP/1.1, HTTP/2 or HTTP/3, from the client's own report
     * @param bodyBytes         the response body's length
     * @param sha256            the body's SHA-256 in hex, or null where the client discards bodies
     * @param requestBodyBytes  the response's {@code X-Request-Body-Bytes}, or null where the client shows no headers
     * @param failure           the client's own message when the exchange failed, else null
     */
    record Exchange(String status, String protocol, long bodyBytes, String sha256, String requestBodyBytes, String failure) {

        static Exchange failed(String message) {
            return new Exchange("", "", 0, null, null, message);
        }
    }

    /** Its name in the table and the TSV file. */
    String name();

    /** Skips the test where the client is missing; on CI (CI=true) that is a failure. */
    void assumeInstalled() throws Exception;

    /** Null when the client speaks {@code mode}, else why not, with its source. */
    String notOffered(Mode mode);

    /** A check a passing cell could not make with this client in {@code mode}, and why; else null. */
    default String unchecked(Mode mode, Ask ask) {
        return null;
    }

    /** Makes every ask in order against {@code base} in {@code mode}; files go under {@code work}. */
    List<Exchange> fetch(Mode mode, URI base, List<Ask> asks, Path work) throws Exception;
}
