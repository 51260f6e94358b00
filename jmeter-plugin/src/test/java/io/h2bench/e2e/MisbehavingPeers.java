package io.h2bench.e2e;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * Peers that break exchanges on purpose, on free loopback ports, for a real JMeter to run into:
 * an h2c server ({@code /page} whose 10th item sends GOAWAY and drops the connection, {@code /reset}
 * that resets its stream mid-body, {@code /stall} that goes silent after headers and 1 kB) and a
 * TCP peer that accepts TLS connections but never answers the ClientHello.
 */
final class MisbehavingPeers implements AutoCloseable {

    static final int PAGE_ITEMS = 20;
    static final int GOAWAY_ITEM = 10;

    private final Server server = new Server();
    private final ServerConnector h2c;
    private final ServerSocket silentTls;
    private final List<Socket> heldOpen = new CopyOnWriteArrayList<>();

    MisbehavingPeers() throws Exception {
        h2c = new ServerConnector(server, new HTTP2CServerConnectionFactory(new HttpConfiguration()));
        h2c.setHost("127.0.0.1");
        server.addConnector(h2c);
        server.setHandler(new BreakingHandler());
        server.start();
        silentTls = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptAndHold, "silent-tls-peer");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int h2cPort() {
        return h2c.getLocalPort();
    }

    int silentTlsPort() {
        return silentTls.getLocalPort();
    }

    private void acceptAndHold() {
        while (!silentTls.isClosed()) {
            try {
                heldOpen.add(silentTls.accept());
            } catch (IOException closed) {
                return;
            }
        }
    }

    @Override
    public void close() throws Exception {
        silentTls.close();
        for (Socket socket : heldOpen) {
            socket.close();
        }
        server.stop();
    }

    private static final class BreakingHandler extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            String path = Request.getPathInContext(request);
            if (path.equals("/page")) {
                return page(response, callback);
            }
            if (path.startsWith("/item/")) {
                return item(request, response, callback, Integer.parseInt(path.substring("/item/".length())));
            }
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 100_000);
            Runnable breakIt = path.equals("/stall")
                    ? () -> { } // headers and 1 kB sent, then silence
                    : () -> callback.failed(new IOException("handler gave up mid-body")); // RST_STREAM
            response.write(false, ByteBuffer.wrap(new byte[1_000]), Callback.from(breakIt, callback::failed));
            return true;
        }

        private static boolean page(Response response, Callback callback) {
            StringBuilder html = new StringBuilder("<html><body>");
            for (int id = 1; id <= PAGE_ITEMS; id++) {
                html.append("<img src=\"/item/").append(id).append("\">");
            }
            html.append("</body></html>");
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html");
            response.write(true, ByteBuffer.wrap(html.toString().getBytes(StandardCharsets.UTF_8)), callback);
            return true;
        }

        private static boolean item(Request request, Response response, Callback callback, int id) {
            if (id == GOAWAY_ITEM && request.getConnectionMetaData().getConnection() instanceof HTTP2Connection h2) {
                // GOAWAY alone lets open streams linger until a timeout; a dying server also drops TCP.
                h2.getSession().close(ErrorCode.PROTOCOL_ERROR.code, "h2bench test GOAWAY",
                        Callback.from(() -> h2.getEndPoint().close()));
                return true;
            }
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "image/png");
            response.write(true, ByteBuffer.wrap(new byte[2_000]), callback);
            return true;
        }
    }
}
