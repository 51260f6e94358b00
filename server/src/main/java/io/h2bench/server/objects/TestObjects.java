package io.h2bench.server.objects;

import java.util.List;

import jakarta.servlet.http.HttpServlet;

import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Handler;

/** Mounts every family of test objects on one servlet context, the same on every listener. */
public final class TestObjects {

    /** One line per object family for the console: path and what it is. */
    public static final List<String> FAMILIES = List.of(
            "/                      page: index.html + style.css + 15 JPEGs (~396 kB, seed 000)",
            "/inline                the same page in one file (CSS inlined, images as data: URIs)",
            "/push                  the page, pushing its 16 resources on HTTP/2",
            "/small-text.txt        44 kB of text",
            "/large-text.txt        2 MB of text",
            "/option?size=44k&delay=100   S bytes after D ms (seed 003)",
            "/resources?count=150&size=0.2m&delay=30   a page of N such objects, fetched in parallel (seed 003)",
            "/articles?count=25[&embed=item]   REST collection, /articles/{id} with ETag (seed 004)",
            "/pushed-script[?push=true]   a page and its 290 kB script, pushed or requested (seed 003)",
            "/average-page          80 files on domain1..16.h2bench.test, virtual hosts of each listener (seed 001)");

    private TestObjects() {
    }

    /**
     * Every object: {@code /option} and seed 000's fixed objects as core handlers ({@link OptionHandler},
     * {@link StaticObjectHandler}), the rest as servlets of one context on threads of their own
     * ({@link ServletDispatch}), so that the tree is NON_BLOCKING.
     */
    public static Handler handler() {
        SeedPage page = SeedPage.get();
        return new OptionHandler(new StaticObjectHandler(page.objects(), new ServletDispatch(context(page))));
    }

    private static ServletContextHandler context(SeedPage page) {
        ServletContextHandler context = new ServletContextHandler("/");
        mount(context, "objects", new StaticObjectServlet(page.objects()), "/");
        mount(context, "push", new PushPageServlet(page.index(), page.dependencies()), "/push");
        mount(context, "articles", new ArticlesServlet(), "/articles/*");
        mount(context, "resources", new ResourcePageServlet(), "/resources");
        mount(context, "pushed-script", new PushedScriptServlet(), PushedScriptServlet.PAGE, PushedScriptServlet.SCRIPT);
        mount(context, "average", new AveragePageServlet(AveragePage.get()), AveragePage.PAGE_PATH, AveragePage.PREFIX + "*");
        BodyFirstFilter.install(context);
        return context;
    }

    /** Every servlet is asynchronous: each writes its body with {@link NonBlockingBody}. */
    private static void mount(ServletContextHandler context, String name, HttpServlet servlet, String... paths) {
        ServletHolder holder = new ServletHolder(name, servlet);
        holder.setAsyncSupported(true);
        for (String path : paths) {
            context.addServlet(holder, path);
        }
    }
}
