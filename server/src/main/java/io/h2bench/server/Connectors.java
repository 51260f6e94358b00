package io.h2bench.server;

import java.security.SecureRandom;

import javax.net.ssl.SSLEngine;

import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http2.server.AbstractHTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

import io.h2bench.server.h3.QuicOptions;

/** Builds one connector per {@link Listener}, step by step as Jetty's own documentation composes them. */
final class Connectors {

    /** Largest request head (HTTP/1.1) and decoded header list (HTTP/2) the server accepts. */
    static final int REQUEST_HEADER_SIZE = 16 * 1024;

    /**
     * The kernel's queue of connections not yet accepted, as Go's listeners (Caddy) ask for: its somaxconn, 4,096
     * (nginx asks for 511). The JDK's 50 dropped the SYNs of 1,000 connections opened at once, and
     * each came back after 1, 3, 7 or 15 s: h2load 1.52 never ended, as its clients still connecting when its
     * -D ended ran on (fixed in nghttp2 1.69), and a client's connect time measured the backlog.
     */
    static final int ACCEPT_QUEUE = 4096;

    private final Server server;
    private final TlsMaterial tls;
    private final TlsProfile profile;
    private final TlsProvider provider;
    private final AltSvc altSvc;
    private final int selectors;

    /**
     * {@code altSvc} announces the h3 listener on the TLS listeners' HTTP/1.1 responses (HTTP/2's: Jetty's factory);
     * {@code provider} runs the TCP TLS listeners, and must be one that loads here ({@link ConscryptTls#unavailableReason()});
     * {@code selectors} per listener, {@link ServerSettings#JETTY_SELECTORS} for Jetty's count.
     */
    Connectors(Server server, TlsMaterial tls, TlsProfile profile, TlsProvider provider, AltSvc altSvc, int selectors) {
        this.server = server;
        this.tls = tls;
        this.profile = profile;
        this.provider = provider;
        this.altSvc = altSvc;
        this.selectors = selectors;
    }

    ServerConnector create(Listener listener) {
        return switch (listener) {
            case H1 -> connector(new HttpConnectionFactory(plainConfiguration()));
            case H1_TLS -> http11OverTls();
            case H2 -> http2OverTls();
            case H2C -> http2Cleartext();
        };
    }

    /**
     * The h3 listener on {@code host}, with the same certificate, added to the server (not opened yet).
     * Its requests are secure by their {@code https} scheme; no TLS customizer, which reads a TCP endpoint.
     */
    Http3Listener http3(String host, QuicOptions options) throws java.io.IOException {
        return Http3Listener.create(server, tls, plainConfiguration(), host, options);
    }

    private ServerConnector http11OverTls() {
        HttpConfiguration https = secureConfiguration();
        https.addCustomizer(altSvc);
        // ALPN offering only http/1.1, so clients that ask for h2 are told plainly: not here.
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("http/1.1");
        alpn.setDefaultProtocol("http/1.1");
        return connector(
                new SslConnectionFactory(sslContextFactory(), alpn.getProtocol()),
                alpn,
                new HttpConnectionFactory(https));
    }

    private ServerConnector http2OverTls() {
        HttpConfiguration https = secureConfiguration();
        https.addCustomizer(altSvc);
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2", "http/1.1");
        alpn.setDefaultProtocol("http/1.1");
        return connector(
                new SslConnectionFactory(sslContextFactory(), alpn.getProtocol()),
                alpn,
                limited(new StrictHTTP2ServerConnectionFactory(https)),
                new HttpConnectionFactory(https));
    }

    private ServerConnector http2Cleartext() {
        HttpConfiguration http = plainConfiguration();
        // HTTP/1.1 first: it answers "Upgrade: h2c" and hands the PRI preface of prior knowledge to h2c.
        return connector(new H2cPrefaceHttpConnectionFactory(http), limited(new StrictHTTP2CServerConnectionFactory(http)));
    }

    /**
     * One acceptor and selector count as Jetty chooses them, unless {@code --selectors} says otherwise, and a
     * listen backlog for a load tool's connections opened at once.
     */
    private ServerConnector connector(ConnectionFactory... factories) {
        int jettyChooses = -1;
        ServerConnector connector = new ServerConnector(server, jettyChooses,
                selectors == ServerSettings.JETTY_SELECTORS ? jettyChooses : selectors, factories);
        connector.setAcceptQueueSize(ACCEPT_QUEUE);
        return connector;
    }

    /** Jetty 12.1.14's defaults, pinned here because Http2AbuseTest relies on them. */
    private static AbstractHTTP2ServerConnectionFactory limited(AbstractHTTP2ServerConnectionFactory http2) {
        // Streams beyond 128 per connection get RST_STREAM(REFUSED_STREAM): 10,000 opened at once cost 128.
        http2.setMaxConcurrentStreams(128);
        // More than 128 suspicious events a second (resets, empty frames, ...) end the connection with
        // GOAWAY(ENHANCE_YOUR_CALM): rapid reset (CVE-2023-44487) and empty CONTINUATION floods. A client's
        // resets of pushed streams and late WINDOW_UPDATEs are not suspicious (SuspiciousFramesRateControl says why).
        http2.setRateControlFactory(SuspiciousFramesRateControl.factory(128));
        return http2;
    }

    private static HttpConfiguration plainConfiguration() {
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendDateHeader(true);
        // Jetty's 8 KiB is below h2spec 6.10/1's two 4,000-byte CONTINUATION fields; still a cap (HPACK list size, h1 head).
        http.setRequestHeaderSize(REQUEST_HEADER_SIZE);
        // No per-connection cache of request header fields (Jetty's default is a 1,024-entry trie in each parser): at
        // 1,000 connections the tries outgrow the CPU's caches, and looking a header up cost more than parsing it
        // (15-19 % of a 100 B request's samples, 3 % at 100 connections). Jetty's shared cache of common fields stays.
        http.setHeaderCacheSize(0);
        return http;
    }

    private static HttpConfiguration secureConfiguration() {
        HttpConfiguration https = plainConfiguration();
        SecureRequestCustomizer secure = new SecureRequestCustomizer();
        // Clients reach the server by IP address as often as by name; the certificate covers both.
        secure.setSniHostCheck(false);
        https.addCustomizer(secure);
        return https;
    }

    private SslContextFactory.Server sslContextFactory() {
        SslContextFactory.Server ssl = new TlsContextFactory();
        if (provider == TlsProvider.CONSCRYPT) {
            // Jetty's ALPN module for Conscrypt takes the SSLEngines of this provider (its appliesTo()), JDK's the JDK's.
            ssl.setProvider(ConscryptTls.PROVIDER);
        }
        ssl.setKeyStorePath(tls.keystore().toAbsolutePath().toString());
        ssl.setKeyStorePassword(tls.password());
        ssl.setKeyStoreType("PKCS12");
        ssl.setIncludeProtocols("TLSv1.3", "TLSv1.2");
        // The profile's order (AES-128-GCM first by default, as Caddy and browsers), then RFC 7540 9.2.2's:
        // the ciphers HTTP/2 allows first. The server's order decides, not the client's.
        ssl.setCipherComparator(profile.cipherOrder());
        ssl.setUseCipherSuitesOrder(true);
        return ssl;
    }

    /**
     * Jetty's factory of a TLS listener's SSLContext. On JSSE it draws from a {@link HandshakeRandom}, not JSSE's
     * default; Conscrypt ignores the random it is given (BoringSSL keeps a generator per thread of its own, with no
     * JVM-wide lock), and gets session tickets, which it issues only when asked, as JSSE, Caddy and nginx issue them.
     */
    static final class TlsContextFactory extends SslContextFactory.Server {

        private final SecureRandom random = HandshakeRandom.create();

        @Override
        public void customize(SSLEngine engine) {
            super.customize(engine);
            ConscryptTls.enableSessionTickets(engine);
        }

        @Override
        protected SecureRandom getSecureRandomInstance() {
            return random;
        }

        /** What JSSE draws server randoms, session IDs, tickets and key shares from. */
        SecureRandom secureRandom() {
            return random;
        }
    }
}
