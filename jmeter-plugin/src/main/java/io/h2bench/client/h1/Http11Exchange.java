package io.h2bench.client.h1;

import io.h2bench.client.direct.DirectExchange;
import io.h2bench.client.exchange.ExchangeRecorder;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.HeaderField;
import io.h2bench.client.exchange.ProtocolMode;
import io.h2bench.client.wire.WireConnection;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpGenerator;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.util.BufferUtil;

/**
 * One HTTP/1.1 exchange on a connection the sampler drives itself ({@link Http11Connection}): the
 * request encoded by Jetty's {@link HttpGenerator} as Jetty's {@code HttpClient} would write it, and
 * the parsed response handed to the same {@link ExchangeRecorder} calls every engine makes. The
 * exchange ends, as Jetty's do, when both its request's write has returned and its response is whole.
 */
final class Http11Exchange extends DirectExchange {

    private final AtomicBoolean requestEnded = new AtomicBoolean();
    private final AtomicBoolean responseEnded = new AtomicBoolean();
    private final AtomicBoolean done = new AtomicBoolean();
    private volatile Http11Connection connection;
    private volatile ExchangeRecorder.ResponseHead head;
    private volatile long responseEndNanos;
    private volatile boolean reusable;
    /** What waits for the request's write to return ({@link #whenRequestWritten}); under this exchange's lock. */
    private Runnable afterWrite;

    Http11Exchange(ExchangeRequest request, ExchangeRecorder recorder) {
        super(request, recorder);
    }

    @Override
    public boolean finished() {
        return done.get();
    }

    boolean head() {
        return "HEAD".equalsIgnoreCase(request.method());
    }

    /** An h2c Upgrade request: it asks the server to switch the connection to HTTP/2 (RFC 7540 section 3.2). */
    boolean asksForUpgrade() {
        return request.mode() == ProtocolMode.H2C_UPGRADE;
    }

    /** The exchange is on {@code carrier} from now on, which is {@code wire} on the socket. */
    void assigned(Http11Connection carrier, WireConnection wire) {
        connection = carrier;
        recorder.attach(wire, true);
    }

    /**
     * The request as Jetty's {@code HttpClient} writes it (its normalizeRequest and HttpSenderOverHTTP),
     * its header block into {@code header} (empty, in flush mode), which must stay untouched until the
     * write has returned. {@code absoluteForm}: the request line names the whole URI, as to a proxy,
     * with the proxy's credentials when it has asked for them.
     * {@code http2Settings}: the h2c Upgrade's, whose headers then replace the plan's connection
     * headers as curl's {@code --http2} adds them; null for no Upgrade.
     */
    Encoded encode(HttpGenerator generator, ByteBuffer header, boolean absoluteForm, String http2Settings) throws IOException {
        URI uri = request.uri();
        byte[] body = request.body();
        HttpFields.Mutable fields = HttpFields.build();
        for (HeaderField field : request.headers()) {
            String name = field.name().toLowerCase(Locale.ROOT);
            if (http2Settings == null || !HeaderField.CONNECTION_HEADERS.contains(name) && !name.equals("http2-settings")) {
                fields.add(field.name(), field.value());
            }
        }
        if (absoluteForm && proxyAuthorization != null) {
            fields.add(HttpHeader.PROXY_AUTHORIZATION, proxyAuthorization);
        }
        if (!fields.contains(HttpHeader.HOST)) {
            fields.put(HttpHeader.HOST, uri.getRawAuthority());
        }
        if (http2Settings != null) {
            fields.put(HttpHeader.CONNECTION, "Upgrade, HTTP2-Settings");
            fields.put(HttpHeader.UPGRADE, "h2c");
            fields.put(HttpHeader.HTTP2_SETTINGS, http2Settings);
        }
        addContentFields(fields);
        String path = path();
        HttpURI target = absoluteForm
                ? HttpURI.build().scheme(uri.getScheme()).host(uri.getHost()).port(uri.getPort()).path(path).query(uri.getRawQuery())
                : HttpURI.build().path(path).query(uri.getRawQuery());
        MetaData.Request metaData = new MetaData.Request(request.method(), target, HttpVersion.HTTP_1_1, fields,
                body.length > 0 ? body.length : -1);
        ByteBuffer content = body.length > 0 ? ByteBuffer.wrap(body) : null;
        boolean expects = continueWait != null;
        ByteBuffer headerRoom = null;
        List<ByteBuffer> out = new ArrayList<>(2);
        while (true) {
            HttpGenerator.Result step = generator.generateRequest(metaData, headerRoom, null, content, true);
            switch (step) {
                case NEED_HEADER -> headerRoom = header;
                case FLUSH -> {
                    if (BufferUtil.hasContent(headerRoom)) {
                        out.add(headerRoom);
                    }
                    if (BufferUtil.hasContent(content) && !expects) {
                        out.add(content);
                    }
                    return new Encoded(out.toArray(ByteBuffer[]::new), generator.isPersistent() && !asksToClose(fields),
                            expects ? content : null);
                }
                case CONTINUE -> {
                }
                default -> throw new IOException("Cannot encode the request: the generator answered " + step);
            }
        }
    }

    private static boolean asksToClose(HttpFields fields) {
        String value = fields.get(HttpHeader.CONNECTION);
        return value != null && value.toLowerCase(Locale.ROOT).contains(HttpHeaderValue.CLOSE.asString());
    }

    /**
     * The bytes to write, whether the connection may carry another request after this one, and the
     * body that waits for a 100 Continue ({@link #continueWait}), null when it is in the buffers.
     */
    record Encoded(ByteBuffer[] buffers, boolean persistent, ByteBuffer waitingBody) {
    }

    /** The header block of a request that expects a 100 Continue is written: {@code sendBody} follows when it may. */
    void headersWritten(Runnable sendBody) {
        continueWait.headersWritten(() -> {
            if (!finished()) {
                sendBody.run();
            }
        });
    }

    @Override
    protected void requestWritten() {
        recorder.requestWritten();
        recorder.activity();
        if (requestEnded.compareAndSet(false, true)) {
            Runnable then;
            synchronized (this) {
                then = afterWrite;
                afterWrite = null;
            }
            if (then != null) {
                then.run();
            }
            succeedWhenBothEnded();
        }
    }

    /**
     * Runs {@code then} once the request's write has returned, at once if it has: a server may answer
     * (the h2c Upgrade's 101) before the writing thread is out of the end point's write, and the
     * end point takes the next write only after it.
     */
    void whenRequestWritten(Runnable then) {
        synchronized (this) {
            if (!requestEnded.get()) {
                afterWrite = then;
                return;
            }
        }
        then.run();
    }

    void responseBegun() {
        finalResponseBegun();
        recorder.responseBegun();
    }

    void responseHeaders(int status, String reason, HttpVersion version, HttpFields fields) {
        head = new ExchangeRecorder.ResponseHead(status, reason, version, fields);
        recorder.responseHeaders(status, version, fields);
    }

    void responseContent(ByteBuffer content) {
        recorder.responseContent(content);
    }

    /** The response is whole; {@code keepAlive}: the connection may carry the next request. */
    void responseEnded(boolean keepAlive) {
        if (responseEnded.compareAndSet(false, true)) {
            responseEndNanos = System.nanoTime();
            // A request that ended without its body ends its connection too: the server might take the next request for it.
            reusable = keepAlive && !bodySkipped();
            succeedWhenBothEnded();
        }
    }

    /** Ends the exchange with {@code failure}; its connection is closed, since its state is unknown. */
    @Override
    public void fail(Throwable failure) {
        if (done.compareAndSet(false, true)) {
            endContinueWait();
            Http11Connection carrier = connection;
            if (carrier != null) {
                carrier.release(this, false);
            }
            recorder.completed(head, failure);
        }
    }

    private void succeedWhenBothEnded() {
        if (requestEnded.get() && responseEnded.get() && done.compareAndSet(false, true)) {
            // The connection first, so that the user's next request finds it free.
            connection.release(this, reusable);
            recorder.completed(head, null, responseEndNanos);
        }
    }

    /** For the response timeout and the stop button: ends the exchange and closes its connection. */
    @Override
    protected void abortHere(Throwable failure) {
        fail(failure);
    }
}
