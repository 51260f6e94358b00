package io.h2bench.sampler;

import io.h2bench.client.Redirects;
import io.h2bench.client.exchange.ExchangeRequest;
import io.h2bench.client.exchange.ExchangeResult;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.UnaryOperator;

/**
 * "Redirect Automatically" for a sample's main request: the client's loop and rules ({@link Redirects},
 * HttpClient4's), fed hop by hop from here because each hop may first be answered with credentials
 * ({@link Challenges}, as HttpClient4 answers a 401 inside each hop of its redirects), takes its
 * scheme's connection settings, and is read by the user's own thread. Each hop goes on the engine of
 * its protocol; the sample carries the final URI.
 */
final class AutoRedirects {

    private AutoRedirects() {
    }

    /** Sends {@code first} and the hops it is redirected to, each changed by {@code eachHop} and sent by {@code send} on this thread. */
    static ExchangeResult follow(Challenges.Hop send, ExchangeRequest first, UnaryOperator<ExchangeRequest> eachHop)
            throws InterruptedException {
        try {
            return Redirects.follow(first, eachHop, request -> {
                try {
                    return CompletableFuture.completedFuture(send.send(request));
                } catch (InterruptedException interrupted) {
                    return CompletableFuture.failedFuture(interrupted);
                }
            }).join();
        } catch (CompletionException failed) {
            if (failed.getCause() instanceof InterruptedException interrupted) {
                throw interrupted;
            }
            if (failed.getCause() instanceof RuntimeException refused) {
                throw refused;
            }
            throw failed;
        }
    }
}
