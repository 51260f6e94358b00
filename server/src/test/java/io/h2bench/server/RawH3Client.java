package io.h2bench.server;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http3.HTTP3Stream;
import org.eclipse.jetty.http3.api.Session;
import org.eclipse.jetty.http3.api.Stream;
import org.eclipse.jetty.http3.client.HTTP3Client;
import org.eclipse.jetty.http3.client.HTTP3ClientQuicConfiguration;
import org.eclipse.jetty.http3.frames.HeadersFrame;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.quic.quiche.client.QuicheClientQuicConfiguration;
import org.eclipse.jetty.quic.quiche.client.QuicheTransport;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * Jetty's low-level HTTP/3 client (12.1.5, on quiche) against the h3 listener on 127.0.0.1, trusting
 * any certificate: it sends frames as the test says, such as a request's FIN long after its HEADERS,
 * which no ordinary client does on purpose.
 */
final class RawH3Client implements AutoCloseable {

    private final HTTP3Client client;
    private final QuicheTransport transport;

    private RawH3Client(HTTP3Client client, QuicheTransport transport) {
        this.client = client;
        this.transport = transport;
    }

    /** A started client whose quiche files (none while it trusts all) go to {@code pemDirectory}. */
    static RawH3Client start(Path pemDirectory) throws Exception {
        return start(HTTP3ClientQuicConfiguration.configure(new QuicheClientQuicConfiguration(pemDirectory)));
    }

    /**
     * A started client that lets the server send only {@code responseWindow} bytes on each request
     * stream until it reads them (QUIC's initial_max_stream_data_bidi_local).
     */
    static RawH3Client startWithResponseWindow(Path pemDirectory, long responseWindow) throws Exception {
        QuicheClientQuicConfiguration quic = HTTP3ClientQuicConfiguration.configure(new QuicheClientQuicConfiguration(pemDirectory));
        quic.setLocalBidirectionalStreamMaxData(responseWindow);
        return start(quic);
    }

    private static RawH3Client start(QuicheClientQuicConfiguration quic) throws Exception {
        HTTP3Client client = new HTTP3Client(quic);
        client.getClientConnector().setSslContextFactory(new SslContextFactory.Client(true));
        client.start();
        return new RawH3Client(client, new QuicheTransport(quic));
    }

    /** An HTTP/3 GET of {@code uri}, with no fields of its own. */
    static MetaData.Request get(URI uri) {
        return new MetaData.Request("GET", HttpURI.from(uri), HttpVersion.HTTP_3, HttpFields.EMPTY);
    }

    /** A new QUIC connection to the h3 listener on {@code port}. */
    CompletableFuture<Connection> connect(int port) {
        CompletableFuture<Session.Client> session = new CompletableFuture<>();
        client.connect(transport, new InetSocketAddress("127.0.0.1", port), new Session.Client.Listener() {},
                Promise.Invocable.toPromise(session));
        return session.thenApply(Connection::new);
    }

    @Override
    public void close() throws Exception {
        client.stop();
    }

    /** One QUIC connection. */
    static final class Connection {

        private final Session.Client session;

        private Connection(Session.Client session) {
            this.session = session;
        }

        /** Sends {@code request}'s HEADERS, ending the request stream with them. */
        Exchange request(MetaData.Request request) {
            return send(request, new Exchange(false));
        }

        /**
         * Sends {@code request}'s HEADERS without ending the request stream, and ends it (an empty
         * STREAM frame with the FIN) as soon as the response's last byte has been read, from the
         * client's reading thread: sent later, the STOP_SENDING of a server that stops the stream
         * once it has answered could come first, and quiche would then refuse the FIN.
         */
        Exchange requestWithLateFin(MetaData.Request request) {
            return send(request, new Exchange(true));
        }

        /** Sends {@code request}'s HEADERS, ending the stream, and never reads the response. */
        void requestNeverRead(MetaData.Request request) {
            session.newRequest(new HeadersFrame(request, true), new Stream.Client.Listener() {}, Promise.Invocable.noop());
        }

        private Exchange send(MetaData.Request request, Exchange exchange) {
            session.newRequest(new HeadersFrame(request, !exchange.lateFin), exchange, Promise.Invocable.noop());
            return exchange;
        }
    }

    /** One request stream: the response's status once its body has all arrived, and the late FIN if asked for. */
    static final class Exchange implements Stream.Client.Listener {

        private final boolean lateFin;
        private final CompletableFuture<Integer> response = new CompletableFuture<>();
        private final CompletableFuture<org.eclipse.jetty.quic.api.Stream> finSent = new CompletableFuture<>();
        private final AtomicLong bodyBytes = new AtomicLong();
        private volatile int status;

        private Exchange(boolean lateFin) {
            this.lateFin = lateFin;
        }

        /** The status, completed when the response's last byte has arrived. */
        CompletableFuture<Integer> response() {
            return response;
        }

        /** The response body's bytes read so far. */
        long bodyBytes() {
            return bodyBytes.get();
        }

        /** Completed when quiche took the late FIN ({@link Connection#requestWithLateFin}). */
        CompletableFuture<org.eclipse.jetty.quic.api.Stream> finSent() {
            return finSent;
        }

        @Override
        public void onResponse(Stream.Client stream, HeadersFrame frame) {
            status = ((MetaData.Response) frame.getMetaData()).getStatus();
            if (frame.isLast()) {
                complete(stream);
            } else {
                stream.demand();
            }
        }

        @Override
        public void onDataAvailable(Stream.Client stream) {
            while (true) {
                Content.Chunk chunk = stream.read();
                if (chunk == null) {
                    stream.demand();
                    return;
                }
                bodyBytes.addAndGet(chunk.remaining());
                chunk.release();
                if (chunk.isLast()) {
                    complete(stream);
                    return;
                }
            }
        }

        private void complete(Stream.Client stream) {
            if (lateFin) {
                // An empty QUIC STREAM frame with the FIN, as some clients end a request; an empty HTTP/3
                // DATA frame would be two bytes to read first, not a bare FIN.
                org.eclipse.jetty.quic.api.Stream quic = ((HTTP3Stream) stream).getStreamEndPoint().getStream();
                quic.data(true, List.of(BufferUtil.EMPTY_BUFFER), Promise.Invocable.toPromise(finSent));
            }
            response.complete(status);
        }

        @Override
        public void onFailure(Stream.Client stream, long error, Throwable failure) {
            response.completeExceptionally(failure);
        }
    }
}
