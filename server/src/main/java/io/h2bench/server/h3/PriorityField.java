package io.h2bench.server.h3;

import java.util.List;

import io.netty.handler.codec.quic.QuicStreamPriority;

/**
 * RFC 9218's Priority field (§4), as a request header or a PRIORITY_UPDATE frame carries it: a
 * structured-field dictionary (RFC 8941 §3.2) whose {@code u} is the urgency, an integer 0 to 7
 * (default 3), and whose {@code i} says incremental, a boolean (default false). Other members are
 * skipped; a {@code u} or {@code i} of the wrong type or out of range is ignored (§4.1, §4.2), and a
 * value that is no dictionary gives the defaults (RFC 8941 fails the whole field). nghttp3 gives the
 * defaults for the whole field when {@code u} or {@code i} is wrong.
 */
final class PriorityField {

    static final int DEFAULT_URGENCY = 3;
    static final QuicStreamPriority DEFAULT = new QuicStreamPriority(DEFAULT_URGENCY, false);
    private static final Object OTHER = new Object();
    private static final long MAX_INTEGER = 999_999_999_999_999L;

    private final String text;
    private int at;

    private PriorityField(String text) {
        this.text = text;
    }

    /** The priority the field lines say (several lines join into one dictionary); the default without any. */
    static QuicStreamPriority parse(List<? extends CharSequence> lines) {
        return lines.isEmpty() ? DEFAULT : parse(String.join(",", lines));
    }

    static QuicStreamPriority parse(String value) {
        try {
            return new PriorityField(value).dictionary();
        } catch (IllegalArgumentException malformed) {
            return DEFAULT;
        }
    }

    private QuicStreamPriority dictionary() {
        int urgency = DEFAULT_URGENCY;
        boolean incremental = false;
        skip(" ");
        while (more()) {
            String key = key();
            Object value = Boolean.TRUE;
            if (more() && text.charAt(at) == '=') {
                at++;
                value = memberValue();
            } else {
                parameters();
            }
            // a later member of the same key replaces an earlier one (RFC 8941 §4.2.2), a wrong one keeps it
            if (key.equals("u") && value instanceof Long u && u <= 7) {
                urgency = u.intValue();
            } else if (key.equals("i") && value instanceof Boolean i) {
                incremental = i;
            }
            skip(" \t");
            if (!more()) {
                break;
            }
            expect(',');
            skip(" \t");
            require(more()); // a trailing comma
        }
        return new QuicStreamPriority(urgency, incremental);
    }

    private Object memberValue() {
        if (more() && text.charAt(at) == '(') {
            at++;
            skip(" ");
            while (!peek(')')) {
                bareItem();
                parameters();
                require(more() && " )".indexOf(text.charAt(at)) >= 0);
                skip(" ");
            }
            at++;
            parameters();
            return OTHER;
        }
        Object item = bareItem();
        parameters();
        return item;
    }

    private void parameters() {
        while (peek(';')) {
            at++;
            skip(" ");
            key();
            if (peek('=')) {
                at++;
                bareItem();
            }
        }
    }

    private String key() {
        int start = at;
        require(more() && (isLowerAlpha(text.charAt(at)) || text.charAt(at) == '*'));
        while (more() && (isLowerAlpha(text.charAt(at)) || isDigit(text.charAt(at)) || "_-.*".indexOf(text.charAt(at)) >= 0)) {
            at++;
        }
        return text.substring(start, at);
    }

    private Object bareItem() {
        require(more());
        char c = text.charAt(at);
        if (c == '-' || isDigit(c)) {
            return number();
        }
        if (c == '?') {
            at++;
            require(peek('0') || peek('1'));
            return text.charAt(at++) == '1';
        }
        if (c == '"') {
            for (at++; !peek('"'); at++) {
                require(more() && text.charAt(at) >= 0x20 && text.charAt(at) < 0x7f);
                if (text.charAt(at) == '\\') {
                    at++;
                    require(peek('"') || peek('\\'));
                }
            }
            at++;
            return OTHER;
        }
        if (c == ':') {
            for (at++; !peek(':'); at++) {
                require(more() && (Character.isLetterOrDigit(text.charAt(at)) && text.charAt(at) < 0x7f || "+/=".indexOf(text.charAt(at)) >= 0));
            }
            at++;
            return OTHER;
        }
        require(c == '*' || (c < 0x7f && Character.isLetter(c)));
        while (more() && text.charAt(at) > 0x20 && text.charAt(at) < 0x7f && "\"(),;<=>?@[\\]{}".indexOf(text.charAt(at)) < 0) {
            at++; // a token's characters: tchar, ':' and '/'
        }
        return OTHER;
    }

    /** An integer (at most 15 digits) as a Long, a decimal (at most 12 digits, '.', 1 to 3 digits) as OTHER. */
    private Object number() {
        boolean negative = peek('-');
        if (negative) {
            at++;
        }
        int start = at;
        while (more() && isDigit(text.charAt(at))) {
            at++;
        }
        int digits = at - start;
        require(digits > 0);
        if (peek('.')) {
            require(digits <= 12);
            int point = ++at;
            while (more() && isDigit(text.charAt(at))) {
                at++;
            }
            require(at - point >= 1 && at - point <= 3);
            return OTHER;
        }
        require(digits <= 15);
        long value = Long.parseLong(text, start, at, 10);
        require(value <= MAX_INTEGER);
        return negative ? OTHER : (Object) value; // no urgency is negative: it is ignored as out of range
    }

    private boolean more() {
        return at < text.length();
    }

    private boolean peek(char c) {
        return more() && text.charAt(at) == c;
    }

    private void expect(char c) {
        require(peek(c));
        at++;
    }

    private void skip(String whitespace) {
        while (more() && whitespace.indexOf(text.charAt(at)) >= 0) {
            at++;
        }
    }

    private static void require(boolean wellFormed) {
        if (!wellFormed) {
            throw new IllegalArgumentException("not a structured-field dictionary");
        }
    }

    private static boolean isLowerAlpha(char c) {
        return c >= 'a' && c <= 'z';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
