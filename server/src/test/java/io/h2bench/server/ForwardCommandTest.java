package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.server.netem.LatencyProxy;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ForwardCommandTest {

    @Test
    void shouldForwardAndPrintConditionsWhenTargetIsGiven() throws IOException {
        try (ServerSocket target = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ForwardCommand command = new ForwardCommand();
            StringWriter out = new StringWriter();
            CommandLine cli = new CommandLine(command).setOut(new PrintWriter(out));
            cli.parseArgs("--listen", "0", "--forward", "127.0.0.1:" + target.getLocalPort(), "--profile", "wifi");

            try (LatencyProxy proxy = command.start();
                 Socket client = new Socket(proxy.address().getAddress(), proxy.address().getPort());
                 Socket accepted = target.accept()) {
                client.getOutputStream().write("hello".getBytes());
                assertThat(accepted.getInputStream().readNBytes(5)).isEqualTo("hello".getBytes());
                assertThat(out.toString()).isEqualTo("forwarding 127.0.0.1:" + proxy.address().getPort()
                        + " -> 127.0.0.1:" + target.getLocalPort()
                        + " with wifi: rtt 2 ms, down 31.457 Mbit/s, up 15.729 Mbit/s, loss 0 %"
                        + System.lineSeparator());
            }
        }
    }

    @Test
    void shouldExplainInOneLineWhenForwardAddressIsBad() {
        assertThat(errorOf("--listen", "0", "--forward", "localhost"))
                .isEqualTo("Invalid value for option '--forward': 'localhost' is not HOST:PORT, e.g. localhost:8080");
        assertThat(errorOf("--listen", "0", "--forward", "localhost:http"))
                .isEqualTo("Invalid value for option '--forward': 'localhost:http' has no port number after the last ':'");
        assertThat(errorOf("--listen", "0", "--forward", "no-such-host.invalid:80"))
                .isEqualTo("Invalid value for option '--forward': cannot resolve host 'no-such-host.invalid'");
        assertThat(errorOf("--listen", "70000", "--forward", "localhost:80"))
                .isEqualTo("--listen must be a port between 0 and 65535, not 70000");
    }

    @Test
    void shouldAcceptBracketedIpv6WhenForwardAddressIsLiteral() {
        assertThat(new ForwardCommand.HostPortConverter().convert("[::1]:8443"))
                .isEqualTo(new InetSocketAddress("::1", 8443));
    }

    @Test
    void shouldExplainInOneLineWhenListenPortIsTaken() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertThat(errorOf("--listen", String.valueOf(taken.getLocalPort()), "--forward", "127.0.0.1:80"))
                    .startsWith("cannot listen on 127.0.0.1:" + taken.getLocalPort() + ": ");
        }
    }

    private static String errorOf(String... args) {
        StringWriter err = new StringWriter();
        new CommandLine(new ForwardCommand()).setErr(new PrintWriter(err)).execute(args);
        return err.toString().lines().findFirst().orElse("");
    }
}
