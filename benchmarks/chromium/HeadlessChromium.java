import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A headless Chromium (Debian's) and the DevTools protocol connection to its one page, for
 * ChromiumPageLoads: started with a profile of its own (its TMPDIR too), navigated or reloaded with
 * the cache disabled, asked to evaluate scripts, stopped with its helpers.
 */
final class HeadlessChromium implements AutoCloseable {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    private static final Pattern ID = Pattern.compile("^\\{\"id\":(\\d+),");
    private static final Pattern VALUE = Pattern.compile("\"value\":\"([^\"]*)\"");

    private final Process process;
    private final WebSocket socket;
    private final BlockingQueue<String> messages;
    private int lastId;

    private HeadlessChromium(Process process, WebSocket socket, BlockingQueue<String> messages) {
        this.process = process;
        this.socket = socket;
        this.messages = messages;
    }

    static HeadlessChromium start(Path profile, List<String> flags, Map<String, String> environment) throws Exception {
        Files.createDirectories(profile);
        List<String> command = new ArrayList<>(List.of(CHROMIUM.toString(),
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-extensions",
                "--user-data-dir=" + profile.resolve("user"), "--remote-debugging-port=0"));
        command.addAll(flags);
        command.add("about:blank");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(profile.resolve("chromium.log").toFile());
        // Chromium's singleton socket goes to TMPDIR and stays when it is killed: the profile's, deleted with it.
        builder.environment().put("TMPDIR", profile.toString());
        builder.environment().putAll(environment);
        Process process = builder.start();
        try {
            String[] active = devToolsPort(process, profile.resolve("user/DevToolsActivePort"));
            HttpClient http = HttpClient.newHttpClient();
            String targets = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + active[0] + "/json/list")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            Matcher page = Pattern.compile("\"webSocketDebuggerUrl\": \"(ws://[^\"]+/devtools/page/[^\"]+)\"").matcher(targets);
            if (!page.find()) {
                throw new IOException("no page among Chromium's targets: " + targets);
            }
            BlockingQueue<String> messages = new LinkedBlockingQueue<>();
            WebSocket socket = http.newWebSocketBuilder().buildAsync(URI.create(page.group(1)), new Collector(messages))
                    .get(30, TimeUnit.SECONDS);
            HeadlessChromium browser = new HeadlessChromium(process, socket, messages);
            browser.call("Page.enable", "{}");
            browser.call("Network.enable", "{}");
            browser.call("Network.setCacheDisabled", "{\"cacheDisabled\":true}");
            return browser;
        } catch (Exception failure) {
            stop(process);
            throw failure;
        }
    }

    /** Chromium writes its DevTools port into the profile once it listens. */
    private static String[] devToolsPort(Process process, Path file) throws Exception {
        for (int i = 0; i < 600; i++) {
            if (Files.exists(file)) {
                List<String> lines = Files.readAllLines(file);
                if (lines.size() >= 2) {
                    return lines.toArray(new String[0]);
                }
            }
            if (!process.isAlive()) {
                throw new IOException("chromium exited with " + process.exitValue());
            }
            Thread.sleep(50);
        }
        throw new IOException("chromium wrote no " + file + " within 30 s");
    }

    /** Navigates (or reloads), waits for the load event, then for {@code timing} to return a non-empty string, and returns it. */
    String load(URI url, boolean reload, String timing) throws Exception {
        messages.clear();
        if (reload) {
            send("Page.reload", "{\"ignoreCache\":true}");
        } else {
            send("Page.navigate", "{\"url\":\"" + url + "\"}");
        }
        await("\"method\":\"Page.loadEventFired\"", 90);
        for (int i = 0; i < 100; i++) {
            String reply = call("Runtime.evaluate", "{\"expression\":\"" + timing.replace("\"", "\\\"") + "\",\"returnByValue\":true}");
            Matcher value = VALUE.matcher(reply);
            if (value.find() && !value.group(1).isEmpty()) {
                return value.group(1);
            }
            Thread.sleep(10);
        }
        throw new IOException("the page's load event did not end");
    }

    /** The window's view of the page as PNG, once {@code overlay} has run in it. */
    void screenshot(Path png, String overlay) throws Exception {
        call("Runtime.evaluate", "{\"expression\":\"" + overlay.replace("\\", "\\\\").replace("\"", "\\\"") + "\",\"returnByValue\":true}");
        Matcher data = Pattern.compile("\"data\":\"([^\"]+)\"").matcher(call("Page.captureScreenshot", "{\"format\":\"png\"}"));
        if (!data.find()) {
            throw new IOException("Chromium returned no screenshot");
        }
        Files.write(png, Base64.getDecoder().decode(data.group(1)));
    }

    private int send(String method, String params) {
        int id = ++lastId;
        socket.sendText("{\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}", true).join();
        return id;
    }

    private String call(String method, String params) throws Exception {
        int id = send(method, params);
        String reply = await("{\"id\":" + id + ",", 30);
        if (reply.contains("\"error\":")) {
            throw new IOException(method + ": " + reply);
        }
        return reply;
    }

    /** The first message containing {@code text}, dropping the ones before it except other replies. */
    private String await(String text, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            String message = messages.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (message == null) {
                throw new IOException("no " + text + " from Chromium within " + seconds + " s");
            }
            if (message.contains(text) && (text.startsWith("{\"id\"") ? message.startsWith(text) : !ID.matcher(message).find())) {
                return message;
            }
        }
    }

    @Override
    public void close() {
        socket.abort();
        stop(process);
    }

    /**
     * SIGTERM first, which lets Chromium finish its net log (a killed browser leaves it cut off),
     * then SIGKILL; its helpers are listed before, since a dead browser no longer has descendants.
     */
    private static void stop(Process process) {
        List<ProcessHandle> helpers = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        helpers.forEach(ProcessHandle::destroyForcibly);
    }

    /** Joins the frames of each DevTools message. */
    private record Collector(BlockingQueue<String> messages, StringBuilder partial) implements WebSocket.Listener {

        Collector(BlockingQueue<String> messages) {
            this(messages, new StringBuilder());
        }

        @Override
        public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                messages.add(partial.toString());
                partial.setLength(0);
            }
            socket.request(1);
            return null;
        }
    }
}
