package io.h2bench.client.exchange;

import java.io.IOException;

/**
 * HTTP/2 was asked for explicitly over https, and the server's ALPN chose another protocol: the
 * exchange fails before its request is written, instead of silently measuring HTTP/1.1.
 */
public final class NoH2OverAlpnException extends IOException {

    private static final long serialVersionUID = 1L;

    public NoH2OverAlpnException(String origin, String negotiated) {
        super("The server " + origin + " does not offer h2 over ALPN (it chose "
                + (negotiated == null ? "no protocol" : negotiated) + "); pick HTTP/1.1 or 'By scheme' to allow it");
    }
}
