package io.h2bench.server.objects;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/** Readable plain text of an exact size, the same bytes on every start (a fixed seed). */
final class TextCorpus {

    private static final String[] WORDS = (
            "the protocol sends each request over one connection while the browser waits for bytes "
            + "a server answers with headers and data frames that share the same stream and window "
            + "latency grows with every round trip so multiplexing saves time when many small objects "
            + "load together compression of headers removes repeated names and values from the wire "
            + "packet loss stalls every stream behind a missing segment until the sender repeats it "
            + "measurement needs clear definitions of connect time first byte and last byte of a body").split(" ");
    private static final int LINE_WIDTH = 72;

    private TextCorpus() {
    }

    /** {@code size} bytes of US-ASCII sentences wrapped at 72 columns, ending with a newline. */
    static byte[] generate(int size, long seed) {
        Random random = new Random(seed);
        StringBuilder text = new StringBuilder(size + LINE_WIDTH);
        int column = 0;
        boolean capital = true;
        while (text.length() < size) {
            String word = WORDS[random.nextInt(WORDS.length)];
            if (capital) {
                word = Character.toUpperCase(word.charAt(0)) + word.substring(1);
                capital = false;
            }
            if (random.nextInt(12) == 0) {
                word += ".";
                capital = true;
            }
            if (column > 0 && column + 1 + word.length() > LINE_WIDTH) {
                text.append('\n');
                column = 0;
            } else if (column > 0) {
                text.append(' ');
                column++;
            }
            text.append(word);
            column += word.length();
        }
        text.setLength(size - 1);
        text.append('\n');
        return text.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** {@code size} bytes: {@code head}, text, {@code tail} (a comment in a script, a {@code <pre>} in a page). */
    static byte[] wrapped(int size, long seed, String head, String tail) {
        byte[] open = head.getBytes(StandardCharsets.US_ASCII);
        byte[] close = tail.getBytes(StandardCharsets.US_ASCII);
        byte[] text = generate(size, seed);
        byte[] body = new byte[size];
        System.arraycopy(open, 0, body, 0, open.length);
        System.arraycopy(text, 0, body, open.length, size - open.length - close.length);
        System.arraycopy(close, 0, body, size - close.length, close.length);
        return body;
    }
}
