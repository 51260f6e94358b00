package io.h2bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProtocolNoteTest {

    @Test
    void shouldReadTheSamplersNotesBackWhenTheMessageEndsInOne() {
        // the messages that Http2SamplerTest, Http3SamplerTest and ApacheH2cUpgradeTest see on real samples
        assertThat(ProtocolNote.in("OK (h2c Upgrade declined by the server: HTTP/1.1 was used)"))
                .contains(new ProtocolNote("h2c Upgrade declined by the server", "HTTP/1.1"));
        assertThat(ProtocolNote.in("OK (HTTP/2 by the https scheme, the server's ALPN chose http/1.1: HTTP/1.1 was used)"))
                .contains(new ProtocolNote("HTTP/2 by the https scheme, the server's ALPN chose http/1.1", "HTTP/1.1"));
        assertThat(ProtocolNote.in("OK (HTTP/3 by Alt-Svc, no h3 advertised by this origin yet: HTTP/2.0 was used)"))
                .contains(new ProtocolNote("HTTP/3 by Alt-Svc, no h3 advertised by this origin yet", "HTTP/2.0"));
    }

    @Test
    void shouldFindNoNoteWhenTheMessageIsAServersOwnText() {
        assertThat(ProtocolNote.in("OK")).isEmpty();
        assertThat(ProtocolNote.in("Not Found (see docs)")).isEmpty();
        assertThat(ProtocolNote.in("")).isEmpty();
    }

    @Test
    void shouldWriteWhatItReadsWhenAppendedToAMessage() {
        ProtocolNote note = new ProtocolNote("h2c Upgrade declined by the server", "HTTP/1.1");

        assertThat(ProtocolNote.in(note.appendTo("Moved Permanently"))).contains(note);
    }
}
