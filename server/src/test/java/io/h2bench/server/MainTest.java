package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: help, refused values and a port that is taken end with one line and exit code 2. */
class MainTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void shouldListEveryFlagWhenAskedForHelp() {
        int code = run("--help");

        assertThat(code).isZero();
        assertThat(text(out)).contains("--bind", "--h1-port", "--tls-port", "--h2-port", "--h2c-port", "--h3-port",
                "--keystore", "--keystore-password", "--tls-profile", "--tls-provider", "--warm-up");
        assertThat(text(out)).contains("(default: web)", "(default: " + WarmUp.DEFAULT_CONNECTIONS + ")");
    }

    @Test
    void shouldSayWhatTheTlsListenersServeAndHowTheServerWarmedUpWhenStarted() {
        int code = run("--h1-port", "0", "--tls-port", "0", "--h2-port", "0", "--h2c-port", "0", "--h3-port", "0",
                "--warm-up", "2", "--", "true");

        assertThat(code).as(text(err)).isZero();
        assertThat(text(out)).contains("h2bench server: TLS ECDSA P-256 certificate ")
                .contains("tls: profile web: ECDSA P-256 certificate, AES-128-GCM first (--tls-profile jsse: RSA 2048 and JSSE's order, as before)")
                .contains("warm-up: 10 connections to its own listeners in ");
    }

    @Test
    void shouldServeTheRsaCertificateAndJssesOrderAsBeforeWhenTheJsseProfileIsAsked() {
        int code = run("--h1-port", "0", "--tls-port", "0", "--h2-port", "0", "--h2c-port", "0", "--h3-port", "0",
                "--tls-profile", "jsse", "--warm-up", "0", "--", "true");

        assertThat(code).as(text(err)).isZero();
        assertThat(text(out)).contains("h2bench server: TLS RSA 2048 certificate ", "localhost.p12")
                .contains("tls: profile jsse: RSA 2048 certificate, JSSE's order (AES-256-GCM first)")
                .contains("warm-up: none (--warm-up 0)");
    }

    @Test
    void shouldNameTheProfilesWhenTheTlsProfileIsUnknown() {
        int code = run("--tls-profile", "rsa");

        assertThat(code).isEqualTo(2);
        assertThat(text(err)).contains("--tls-profile").contains("web or jsse").contains("rsa");
    }

    @Test
    void shouldShowH3OnTheH2PortNumberAndTellTheClientWhenNoPortIsGiven() {
        int code = run("--h1-port", "0", "--tls-port", "0", "--h2-port", "0", "--h2c-port", "0", "--warm-up", "0", "--",
                "sh", "-c", "test \"$H2BENCH_H3_PORT\" = \"$H2BENCH_H2_PORT\"");

        assertThat(code).as(text(err)).isZero();
        assertThat(text(out)).contains("h3 - HTTP/3 over QUIC (UDP), announced by Alt-Svc on h1-tls and h2");
    }

    @Test
    void shouldSayWhyThereIsNoH3WhenTheByteProxyEmulatesTheNetwork() {
        int code = run("--h1-port", "0", "--tls-port", "0", "--h2-port", "0", "--h2c-port", "0",
                "--engine", "proxy", "--latency", "10ms", "--warm-up", "0", "--", "sh", "-c", "test -z \"$H2BENCH_H3_PORT\"");

        assertThat(code).as(text(err)).isZero();
        assertThat(text(out)).contains("h3 - not started: the byte proxy relays TCP only, and QUIC is UDP");
    }

    @Test
    void shouldNameThePortAndExitNonZeroWhenThePortIsTaken() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            int code = run("--h1-port", "0", "--tls-port", "0", "--h2-port", Integer.toString(taken.getLocalPort()),
                    "--h2c-port", "0");

            assertThat(code).isEqualTo(2);
            assertThat(text(err).strip())
                    .isEqualTo("h2bench-server: port " + taken.getLocalPort() + " on 127.0.0.1 for h2 is already in use");
        }
    }

    @Test
    void shouldNameTheH3PortWhenItsUdpPortIsTaken() throws Exception {
        try (DatagramSocket taken = new DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
            int code = run("--h1-port", "0", "--tls-port", "0", "--h2-port", "0", "--h2c-port", "0",
                    "--h3-port", Integer.toString(taken.getLocalPort()), "--", "true");

            assertThat(code).isEqualTo(2);
            assertThat(text(err).strip())
                    .isEqualTo("h2bench-server: port " + taken.getLocalPort() + " on 127.0.0.1 for h3 (UDP) is already in use");
        }
    }

    @Test
    void shouldRefuseAPortOutOfRange() {
        int code = run("--h1-port", "70000");

        assertThat(code).isEqualTo(2);
        assertThat(text(err)).contains("port of h1 must be 0..65535, was 70000").doesNotContain("at io.h2bench");
    }

    @Test
    void shouldRefuseANumberThatIsNotOne() {
        int code = run("--h2-port", "eighty");

        assertThat(code).isEqualTo(2);
        assertThat(text(err)).contains("--h2-port").contains("eighty");
    }

    @Test
    void shouldNameTheNetworkOptionWhenItsValueIsBad() {
        int code = run("--latency", "soon");

        assertThat(code).isEqualTo(2);
        assertThat(text(err)).contains("--latency").contains("soon").doesNotContain("at io.h2bench");
    }

    @Test
    void shouldNameTheLossPatternsWhenThePatternIsUnknown() {
        int code = run("--loss", "1%", "--loss-pattern", "bursty");

        assertThat(code).isEqualTo(2);
        assertThat(text(err)).contains("--loss-pattern must be random, per-connection or nth-connection, not 'bursty'")
                .doesNotContain("at io.h2bench");
    }

    @Test
    void shouldRefuseTheSameLossesOnEveryConnectionOnTheByteProxy() {
        int code = run("--h1-port", "0", "--tls-port", "0", "--h2-port", "0", "--h2c-port", "0",
                "--engine", "proxy", "--loss", "1%", "--loss-pattern", "per-connection");

        assertThat(code).isEqualTo(2);
        assertThat(text(err).strip()).isEqualTo("h2bench-server: --loss-pattern per-connection needs the kernel engine: "
                + "the byte proxy draws each connection's losses apart");
    }

    @Test
    void shouldListTheNetworkFlagsAndTheForwardCommandWhenAskedForHelp() {
        run("--help");

        assertThat(text(out)).contains("--latency", "--bandwidth", "--loss", "--loss-pattern", "--profile", "--seed",
                "forward", "1% or 0.3%");
        assertThat(text(err)).isEmpty();
    }

    @Test
    void shouldSayWhichKeystoreIsMissing(@TempDir Path dir) {
        Path missing = dir.resolve("absent.p12");
        int code = run("--h1-port", "0", "--tls-port", "0", "--h2-port", "0", "--h2c-port", "0",
                "--keystore", missing.toString(), "--keystore-password", "x");

        assertThat(code).isEqualTo(2);
        assertThat(text(err).strip()).isEqualTo("h2bench-server: key store not found: " + missing);
    }

    @Test
    void shouldSayWhyTheQlogDirectoryCannotBeUsed(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "not a directory");
        int code = run("--h1-port", "0", "--tls-port", "0", "--h2-port", "0", "--h2c-port", "0",
                "--qlog-dir", file.resolve("qlog").toString());

        assertThat(code).isEqualTo(2);
        assertThat(text(err).strip()).startsWith("h2bench-server: --qlog-dir " + file.resolve("qlog") + ": cannot create the directory");
        assertThat(text(out)).doesNotContain("ready");
    }

    private int run(String... args) {
        return Main.run(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), args);
    }

    private static String text(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
