package io.h2bench.server.objects;

import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The servlet context on a pool thread of its own, so that the handler tree in front of it stays
 * NON_BLOCKING. A tree holding a servlet context is BLOCKING as a whole: Jetty then hands every
 * request to another thread before any handler runs, {@link StaticObjectHandler}'s and
 * {@link OptionHandler}'s too, and over TLS a cold, overloaded server left connections whose read
 * interest it never applied (issue 41's reproducer, with a BLOCKING core handler). Declared
 * NON_BLOCKING, the core handlers run on the thread that parsed the request, and only what reaches
 * the servlets (push, the articles, the resource pages, the average page, 404s) is handed over, as
 * every request was before. Jetty's own QoSHandler resumes requests on another thread the same way.
 */
final class ServletDispatch extends Handler.Wrapper {

    ServletDispatch(ServletContextHandler servlets) {
        super(servlets);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        request.getComponents().getThreadPool().execute(() -> handleOnPoolThread(request, response, callback));
        return true;
    }

    private void handleOnPoolThread(Request request, Response response, Callback callback) {
        try {
            if (!super.handle(request, response, callback)) {
                Response.writeError(request, response, callback, 404); // the context is stopping: as Jetty answers an unhandled request
            }
        } catch (Throwable failure) {
            callback.failed(failure);
        }
    }

    @Override
    public InvocationType getInvocationType() {
        return InvocationType.NON_BLOCKING; // it blocks no thread of Jetty's: the servlets run on one of their own
    }
}
