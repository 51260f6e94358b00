package io.h2bench.server;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;

import io.h2bench.server.objects.AveragePage;

/**
 * A Jetty client that resolves {@code *.h2bench.test} to loopback, as a browser started with
 * {@code --host-resolver-rules="MAP *.h2bench.test 127.0.0.1"} does, and loads seed 001's page
 * the way a browser does: the HTML, then every resource it names at once.
 */
final class OriginClient implements AutoCloseable {

    private static final Pattern URL = Pattern.compile("(?:src|href)=\"(https?://[^\"]+)\"");

    private final HttpClient client;

    OriginClient(Listener listener, int connectionsPerOrigin) throws Exception {
        client = TestClients.jetty(listener);
        client.setMaxConnectionsPerDestination(connectionsPerOrigin);
        client.setSocketAddressResolver((host, port, context, promise) -> promise.succeeded(
                List.of(new InetSocketAddress(host.endsWith(AveragePage.DOMAIN_SUFFIX) ? "127.0.0.1" : host, port))));
        client.start();
    }

    /** The page from domain1 on this listener's port, then all its resources concurrently. */
    List<ContentResponse> loadAveragePage(Listener listener, int port) throws Exception {
        URI page = URI.create(listener.scheme() + "://" + AveragePage.host(1) + ":" + port + AveragePage.PAGE_PATH);
        ContentResponse html = client.GET(page);
        List<CompletableFuture<ContentResponse>> pending = new ArrayList<>();
        Matcher links = URL.matcher(html.getContentAsString());
        while (links.find()) {
            pending.add(new CompletableResponseListener(client.newRequest(links.group(1)), 4 << 20).send());
        }
        List<ContentResponse> responses = new ArrayList<>(List.of(html));
        for (CompletableFuture<ContentResponse> response : pending) {
            responses.add(response.get(30, TimeUnit.SECONDS));
        }
        return responses;
    }

    ContentResponse get(String uri) throws Exception {
        return client.GET(uri);
    }

    ContentResponse delete(String uri) throws Exception {
        return client.newRequest(uri).method("DELETE").send();
    }

    @Override
    public void close() throws Exception {
        client.stop();
    }
}
