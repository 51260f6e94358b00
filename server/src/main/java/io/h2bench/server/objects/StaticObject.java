package io.h2bench.server.objects;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * One immutable object served from memory, with a strong validator derived from its bytes; {@code body}
 * holds the same bytes in a direct buffer, which Jetty writes whole (NonBlockingBody).
 */
public record StaticObject(String path, String contentType, byte[] bytes, String etag, ByteBuffer body) {

    public StaticObject(String path, String contentType, byte[] bytes, String etag) {
        this(path, contentType, bytes, etag, NonBlockingBody.direct(bytes));
    }

    public static StaticObject of(String path, String contentType, byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes);
        String etag = "\"" + Long.toHexString(crc.getValue()) + "-" + Integer.toHexString(bytes.length) + "\"";
        return new StaticObject(path, contentType, bytes, etag);
    }

    /** Whether an {@code If-None-Match} value names this object ({@code *}, its ETag, or the ETag as a weak one). */
    public boolean isMatchedBy(String ifNoneMatch) {
        for (String candidate : ifNoneMatch.split(",")) {
            String tag = candidate.trim();
            if (tag.equals("*") || tag.equals(etag) || tag.equals("W/" + etag)) {
                return true;
            }
        }
        return false;
    }

    public int size() {
        return bytes.length;
    }
}
