package io.h2bench.server.h3;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http.Trailers;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.HttpStream;
import org.eclipse.jetty.server.internal.HttpChannelState;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http3.DefaultHttp3DataFrame;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
import io.netty.handler.codec.http3.Http3DataFrame;
import io.netty.handler.codec.http3.Http3HeadersFrame;
import io.netty.handler.codec.http3.Http3RequestStreamInboundHandler;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.util.ReferenceCountUtil;

/**
 * One HTTP/3 request stream handed to Jetty's handler tree: Netty's frames in, as Jetty's request
 * and its content chunks; Jetty's response out, as Netty's frames. Netty's methods run on the
 * connection's event loop, Jetty's handlers there too when they block no thread, else on Jetty's
 * threads; the chunks between them are guarded by this.
 *
 * <p>A response write completes when quiche has taken its bytes, so a client that stops reading
 * holds the write, never a thread. One that holds it longer than the stream's idle timeout gets
 * its stream reset, and the memory is let go.
 */
final class RequestStream extends Http3RequestStreamInboundHandler implements HttpStream {

    static final int H3_NO_ERROR = 0x100;
    static final int H3_INTERNAL_ERROR = 0x102;
    static final int H3_REQUEST_CANCELLED = 0x10c;
    static final int H3_MESSAGE_ERROR = 0x10e;
    /** Request content read ahead of the handler before the stream stops reading (its QUIC window then closes). */
    private static final int READ_AHEAD_BYTES = 256 * 1024;

    private final Http3Connector connector;
    private final QuicConnectionMetaData connection;
    private final ResponsePriorities priorities;
    private final Deque<Content.Chunk> chunks = new ArrayDeque<>();
    private long bufferedBytes;
    private boolean demanded;
    private boolean inputClosed;
    private volatile ChannelHandlerContext ctx;
    private volatile HttpChannelState channel;
    private volatile MetaData.Response response;
    private volatile boolean committed;
    private volatile long idleTimeoutMillis;
    /** Jetty completed the exchange (succeeded or failed): a stream closing now fails nothing. */
    private volatile boolean finished;
    /** Where the response's FIN goes; touched on the event loop only. */
    private FinWithLastBytes fin;

    RequestStream(Http3Connector connector, QuicConnectionMetaData connection, ResponsePriorities priorities) {
        this.connector = connector;
        this.connection = connection;
        this.priorities = priorities;
        this.idleTimeoutMillis = connector.getIdleTimeout();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        QuicStreamChannel stream = (QuicStreamChannel) ctx.channel();
        fin = FinWithLastBytes.addTo(stream);
        HeadersWithFirstBytes.addTo(stream); // beneath it: the FIN's bytes join the frames before them
        // RFC 9218's default until the request says otherwise: not quiche's own, round robin, which cut
        // each response's share of a freed window into a short packet of its own (more datagrams, more losses)
        priorities.opened(stream);
    }

    // Netty's side, on the event loop

    @Override
    protected void channelRead(ChannelHandlerContext ctx, Http3HeadersFrame frame) {
        try {
            if (channel != null) {
                HttpFields.Mutable trailers = HttpFields.build();
                frame.headers().forEach(field -> trailers.add(field.getKey().toString(), field.getValue().toString()));
                offer(new Trailers(trailers.asImmutable()), 0);
                return;
            }
            priorities.requested((QuicStreamChannel) ctx.channel(), frame.headers().getAll("priority"));
            MetaData.Request request = Http3Fields.request(frame.headers());
            if (request == null) {
                reset(H3_MESSAGE_ERROR);
                return;
            }
            HttpChannelState state = new HttpChannelState(connection);
            state.initialize();
            state.setHttpStream(this);
            channel = state;
            execute(state.onRequest(request));
        } catch (RuntimeException malformed) {
            reset(H3_MESSAGE_ERROR);
        } finally {
            ReferenceCountUtil.release(frame);
        }
    }

    @Override
    protected void channelRead(ChannelHandlerContext ctx, Http3DataFrame frame) {
        try {
            ByteBuffer copy = ByteBuffer.allocate(frame.content().readableBytes());
            frame.content().readBytes(copy);
            offer(Content.Chunk.from(copy.flip(), false), copy.remaining());
        } finally {
            frame.release();
        }
    }

    @Override
    protected void channelInputClosed(ChannelHandlerContext ctx) {
        inputClosed = true;
        offer(Content.Chunk.EOF, 0);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        priorities.closed((QuicStreamChannel) ctx.channel());
        HttpChannelState state = channel;
        if (state != null && !finished) {
            EofException closed = new EofException("HTTP/3 stream closed before its response completed");
            offer(Content.Chunk.from(closed, true), 0);
            execute(state.onFailure(closed));
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A reset by the client, a protocol error: the stream ends; Jetty hears of it on channelInactive.
        ctx.close();
    }

    private void offer(Content.Chunk chunk, int bytes) {
        boolean notify;
        synchronized (this) {
            chunks.add(chunk);
            bufferedBytes += bytes;
            notify = demanded;
            demanded = false;
            if (bufferedBytes > READ_AHEAD_BYTES) {
                ctx.channel().config().setAutoRead(false);
            }
        }
        HttpChannelState state = channel;
        if (notify && state != null) {
            execute(state.onContentAvailable());
        }
    }

    /**
     * Runs Jetty's {@code task}: here on the event loop when it blocks no thread (the seed objects'
     * handlers answer from memory), as Jetty's own connections run such tasks on the thread that read
     * the request; else on Jetty's pool. A pool thread woken after an idle gap took 0.5 to 2.1 ms of a
     * reused connection's answer.
     */
    private void execute(Runnable task) {
        if (task == null) {
            return;
        }
        if (Invocable.getInvocationType(task) == Invocable.InvocationType.NON_BLOCKING && ctx.executor().inEventLoop()) {
            task.run();
        } else {
            connector.getExecutor().execute(task);
        }
    }

    // Jetty's side

    @Override
    public String getId() {
        return ((QuicStreamChannel) ctx.channel()).streamId() + "";
    }

    @Override
    public Content.Chunk read() {
        Content.Chunk chunk;
        boolean resume;
        synchronized (this) {
            chunk = chunks.peek();
            if (chunk == null) {
                return null;
            }
            if (chunk.isLast()) {
                // As Content.Chunk.next: a failure stays, anything else last is followed by EOF.
                if (!Content.Chunk.isFailure(chunk) && chunk != Content.Chunk.EOF) {
                    chunks.poll();
                    chunks.addFirst(Content.Chunk.EOF);
                }
                return chunk;
            }
            chunks.poll();
            bufferedBytes -= chunk.remaining();
            resume = bufferedBytes <= READ_AHEAD_BYTES / 2 && !ctx.channel().config().isAutoRead();
        }
        if (resume) {
            ctx.channel().config().setAutoRead(true);
        }
        return chunk;
    }

    @Override
    public void demand() {
        boolean ready;
        synchronized (this) {
            ready = !chunks.isEmpty();
            demanded = !ready;
        }
        if (ready) {
            execute(channel.onContentAvailable());
        }
    }

    @Override
    public void prepareResponse(HttpFields.Mutable headers) {
        // HTTP/3 adds nothing: no Connection, no Transfer-Encoding.
    }

    @Override
    public void send(MetaData.Request request, MetaData.Response response, boolean last, ByteBuffer content, Callback callback) {
        boolean head = HttpMethod.HEAD.is(request.getMethod());
        boolean hasContent = content != null && content.hasRemaining() && !head;
        DefaultHttp3HeadersFrame headers = null;
        long declared = -1;
        if (response != null) {
            if (HttpStatus.isInterim(response.getStatus())) {
                headers = new DefaultHttp3HeadersFrame();
                Http3Fields.response(response, -1, headers.headers());
                write(headers, null, null, false, -1, 0, callback);
                return;
            }
            this.response = response;
            committed = true;
            long length = response.getContentLength();
            if (last && length < 0) {
                length = hasContent ? content.remaining() : 0;
            }
            headers = new DefaultHttp3HeadersFrame();
            Http3Fields.response(response, length, headers.headers());
            declared = head ? 0 : length;
        }
        DefaultHttp3DataFrame data = null;
        if (hasContent) {
            // Netty reads the bytes through a view of its own; Jetty sees them taken, as a socket write would take them.
            data = new DefaultHttp3DataFrame(Unpooled.wrappedBuffer(content));
            content.position(content.limit());
        }
        DefaultHttp3HeadersFrame trailers = last ? trailers() : null;
        long dataBytes = data == null ? 0 : data.content().readableBytes();
        write(headers, data, trailers, last, declared, dataBytes, callback);
    }

    private DefaultHttp3HeadersFrame trailers() {
        MetaData.Response sent = response;
        if (sent == null || sent.getTrailersSupplier() == null) {
            return null;
        }
        HttpFields fields = sent.getTrailersSupplier().get();
        if (fields == null || fields.size() == 0) {
            return null;
        }
        DefaultHttp3HeadersFrame trailers = new DefaultHttp3HeadersFrame();
        Http3Fields.fields(fields, trailers.headers());
        return trailers;
    }

    /**
     * Writes the frames there are, ends the stream's output with the last of them when they end the
     * response (its last write, or the body's declared length reached with no trailers to follow:
     * {@link FinWithLastBytes}), and completes {@code callback} when quiche took them.
     *
     * @param declared  the response's content length when {@code headers} are among the frames, else -1
     */
    private void write(Object headers, Object data, Object trailers, boolean last, long declared, long dataBytes,
                       Callback callback) {
        QuicStreamChannel stream = (QuicStreamChannel) ctx.channel();
        stream.eventLoop().execute(() -> {
            if (fin.ended()) {
                callback.succeeded(); // the body's last bytes carried the FIN: Jetty's empty last write adds nothing
                return;
            }
            if (headers != null && (response == null || response.getTrailersSupplier() == null)) {
                fin.expect(declared);
            }
            boolean complete = fin.completes(dataBytes) && trailers == null;
            Object lastFrame = trailers != null ? trailers : data != null ? data : headers;
            ChannelFuture written = null;
            for (Object frame : new Object[]{headers, data, trailers}) {
                if (frame == null) {
                    continue;
                }
                written = frame == lastFrame && (last || complete) ? stream.write(frame, fin.lastFrame(stream)) : stream.write(frame);
            }
            if (written == null) {
                written = stream.newSucceededFuture();
            }
            stream.flush(); // hands quiche the frames above as one: HeadersWithFirstBytes
            ScheduledFuture<?> timeout = stream.eventLoop().schedule(() -> stalled(stream), Math.max(1, idleTimeoutMillis),
                    TimeUnit.MILLISECONDS);
            written.addListener(done -> {
                timeout.cancel(false);
                if (!done.isSuccess()) {
                    callback.failed(done.cause() != null ? done.cause() : new EofException("HTTP/3 stream closed"));
                } else if (last && !fin.ended()) {
                    // nothing left to carry it: a FIN-only frame, as before
                    stream.shutdownOutput().addListener(shut -> callback.succeeded());
                } else {
                    callback.succeeded();
                }
            });
        });
    }

    /** A client that has not taken a write for the idle timeout: reset the stream, which fails the write. */
    private void stalled(QuicStreamChannel stream) {
        HttpChannelState state = channel;
        if (state != null) {
            execute(state.onFailure(new TimeoutException("HTTP/3 response write idle for " + idleTimeoutMillis + " ms")));
        }
        stream.shutdown(H3_REQUEST_CANCELLED);
        stream.close();
    }

    @Override
    public Runnable cancelSend(Throwable cause, Callback callback) {
        return () -> {
            reset(H3_REQUEST_CANCELLED);
            callback.failed(cause);
        };
    }

    @Override
    public long getIdleTimeout() {
        return idleTimeoutMillis;
    }

    @Override
    public void setIdleTimeout(long idleTimeoutMillis) {
        this.idleTimeoutMillis = idleTimeoutMillis;
    }

    @Override
    public boolean isCommitted() {
        return committed;
    }

    @Override
    public Throwable consumeAvailable() {
        return HttpStream.consumeAvailable(this, connection.getHttpConfiguration());
    }

    /** The response is complete: stop the client sending a request body nobody read (RFC 9114 4.1). */
    @Override
    public void succeeded() {
        finished = true;
        HttpChannelState state = channel;
        if (state != null) {
            state.recycle();
        }
        QuicStreamChannel stream = (QuicStreamChannel) ctx.channel();
        stream.eventLoop().execute(() -> {
            if (!inputClosed && stream.isActive()) {
                stream.shutdownInput(H3_NO_ERROR);
            }
        });
    }

    @Override
    public void failed(Throwable failure) {
        finished = true;
        reset(failure == HttpStream.CONTENT_NOT_CONSUMED ? H3_NO_ERROR : H3_REQUEST_CANCELLED);
    }

    private void reset(int errorCode) {
        QuicStreamChannel stream = (QuicStreamChannel) ctx.channel();
        stream.shutdown(errorCode).addListener(done -> stream.close());
    }
}
