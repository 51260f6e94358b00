package io.h2bench.client.wire;

/**
 * An exchange in flight on a {@link WireConnection}, as the connection sees it: something its bytes
 * are attributed to. The exchange's recorder is one; the connection needs nothing else of it.
 */
public interface WireShare {

    /** Bytes read ({@code in}) and written ({@code out}) on the socket that are this exchange's. */
    void addWireBytes(long in, long out);
}
