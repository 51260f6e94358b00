package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.PrefaceFrame;
import org.eclipse.jetty.http2.frames.SettingsFrame;
import org.eclipse.jetty.http2.parser.ServerParser;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.RateControl;
import org.junit.jupiter.api.Test;

/**
 * The client's first bytes (preface, SETTINGS, a request) fed to the h2 listeners' parser in two reads, cut
 * at every byte: what the session hears must not depend on where the cut falls. SlowReadersTest's attackers
 * write the SETTINGS frame's header and payload apart, and on a busy machine the server read them apart.
 */
class WholePrefaceParserTest {

    private static final int MAX_HEADER_SIZE = 16 * 1024;
    private static final String EXPECTED = "preface; settings {4=0}; headers 1 /small-text.txt";

    @Test
    void shouldHearThePrefaceSettingsAndRequestWhereverTheClientsFirstBytesAreCut() {
        byte[] opening = opening(PrefaceFrame.PREFACE_BYTES);
        for (int cut = 1; cut < opening.length; cut++) {
            assertThat(heard(new WholePrefaceParser(ByteBufferPool.NON_POOLING, MAX_HEADER_SIZE, RateControl.NO_RATE_CONTROL), false,
                    opening, cut)).as("cut after byte %d", cut).isEqualTo(EXPECTED);
        }
    }

    @Test
    void shouldHearThemWhereverTheyAreCutWhenHttp11ReadThePrefacesFirstLine() {
        byte[] rest = Arrays.copyOfRange(PrefaceFrame.PREFACE_BYTES, PrefaceFrame.PREFACE_PREAMBLE_BYTES.length, PrefaceFrame.PREFACE_BYTES.length);
        byte[] opening = opening(rest);
        for (int cut = 1; cut < opening.length; cut++) {
            // as Jetty's HTTP/1.1 connection hands the connection over to h2c once it has read "PRI * HTTP/2.0"
            assertThat(heard(new WholePrefaceParser(ByteBufferPool.NON_POOLING, MAX_HEADER_SIZE, RateControl.NO_RATE_CONTROL), true,
                    opening, cut)).as("cut after byte %d", cut).isEqualTo(EXPECTED);
        }
    }

    @Test
    void shouldEndTheConnectionAtOnceAsJettyDoesWhenThePrefaceIsWrong() {
        byte[] wrong = "PRI * HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII); // one read, shorter than a preface
        String jetty = heard(new ServerParser(ByteBufferPool.NON_POOLING, MAX_HEADER_SIZE, RateControl.NO_RATE_CONTROL), false,
                wrong, wrong.length);
        assertThat(jetty).isEqualTo("failure 1 invalid_preface");
        assertThat(heard(new WholePrefaceParser(ByteBufferPool.NON_POOLING, MAX_HEADER_SIZE, RateControl.NO_RATE_CONTROL), false,
                wrong, wrong.length)).isEqualTo(jetty);
    }

    /** When this fails, Jetty reads a SETTINGS frame cut after its header, and WholePrefaceParser can go. */
    @Test
    void shouldBeNeededWhileJettysParserReadsTheSettingsHeaderTwiceWhenItsPayloadComesLater() {
        byte[] opening = opening(PrefaceFrame.PREFACE_BYTES);
        int afterSettingsHeader = PrefaceFrame.PREFACE_BYTES.length + 9;
        assertThat(heard(new ServerParser(ByteBufferPool.NON_POOLING, MAX_HEADER_SIZE, RateControl.NO_RATE_CONTROL), false,
                opening, afterSettingsHeader)).startsWith("preface; failure");
    }

    /** {@code preface}, then SETTINGS with SETTINGS_INITIAL_WINDOW_SIZE 0 and a GET on stream 1, as RawH2 writes them. */
    private static byte[] opening(byte[] preface) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(preface);
        bytes.writeBytes(new byte[] {0, 0, 6, 0x4, 0, 0, 0, 0, 0, 0, 0x4, 0, 0, 0, 0});
        byte[] block = RawH2.get("/small-text.txt");
        bytes.writeBytes(new byte[] {0, 0, (byte) block.length, RawH2.HEADERS, RawH2.END_HEADERS | RawH2.END_STREAM, 0, 0, 0, 1});
        bytes.writeBytes(block);
        return bytes.toByteArray();
    }

    /**
     * What {@code parser} tells its session of {@code bytes} given in two reads, the first {@code cut} bytes long;
     * {@code afterHttp11}: HTTP/1.1 read the preface's first line.
     */
    private static String heard(ServerParser parser, boolean afterHttp11, byte[] bytes, int cut) {
        List<String> events = new ArrayList<>();
        parser.init(new ServerParser.Listener() {
            @Override
            public void onPreface() {
                events.add("preface");
            }

            @Override
            public void onSettings(SettingsFrame frame) {
                events.add("settings " + frame.getSettings());
            }

            @Override
            public void onHeaders(HeadersFrame frame) {
                events.add("headers " + frame.getStreamId() + " " + ((MetaData.Request) frame.getMetaData()).getHttpURI().getPath());
            }

            @Override
            public void onConnectionFailure(int error, String reason) {
                events.add("failure " + error + " " + reason);
            }
        });
        if (afterHttp11) {
            parser.directUpgrade();
        }
        parser.parse(ByteBuffer.wrap(bytes, 0, cut));
        parser.parse(ByteBuffer.wrap(bytes, cut, bytes.length - cut));
        return String.join("; ", events);
    }
}
