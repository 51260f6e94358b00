package io.h2bench.report;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a sample's response message says when the sample used another protocol than the one asked
 * for: a declined h2c Upgrade, an https server's ALPN choosing http/1.1, HTTP/3 by Alt-Svc before the
 * origin advertised h3. The sampler writes it ({@link #appendTo}), the comparison reads it back from
 * the JTL's {@code responseMessage} column ({@link #in}), so both sides share one format.
 *
 * @param reason why another protocol was used, e.g. "h2c Upgrade declined by the server"
 * @param used   the protocol the response came over, as the sample reports it ("HTTP/1.1")
 */
public record ProtocolNote(String reason, String used) {

    private static final Pattern NOTE = Pattern.compile("\\(([^()]+): (\\S+) was used\\)$");

    /** The response message with this note after it: {@code OK (reason: HTTP/1.1 was used)}. */
    public String appendTo(String responseMessage) {
        return responseMessage + " (" + reason + ": " + used + " was used)";
    }

    /** The note at the end of a response message, if the sample used another protocol than asked. */
    public static Optional<ProtocolNote> in(String responseMessage) {
        Matcher matcher = NOTE.matcher(responseMessage);
        return matcher.find() ? Optional.of(new ProtocolNote(matcher.group(1), matcher.group(2))) : Optional.empty();
    }
}
