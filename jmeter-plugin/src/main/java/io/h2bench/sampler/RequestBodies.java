package io.h2bench.sampler;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.apache.jmeter.config.Argument;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.protocol.http.util.HTTPArgument;
import org.apache.jmeter.protocol.http.util.HTTPFileArg;
import org.apache.jmeter.testelement.property.JMeterProperty;
import java.util.Locale;

/**
 * Builds a request body the way JMeter's HTTP sampler does, from the sampler's fields: form
 * parameters (urlencoded), raw "Body Data", one file sent as the body, or multipart/form-data with
 * files. Methods without a body (GET, HEAD, OPTIONS…) carry their parameters in the URL, which
 * {@link HTTPSamplerBase#getUrl()} already did.
 */
final class RequestBodies {

    /** A body ready to send, its content type (null: leave it to the Header Manager) and its text. */
    record Body(byte[] bytes, String contentType, String display) {
        static final Body NONE = new Body(new byte[0], null, "");
    }

    private RequestBodies() {
    }

    static boolean carriesBody(String method) {
        return switch (method.toUpperCase(Locale.ROOT)) {
            case "POST", "PUT", "PATCH", "DELETE" -> true;
            default -> false;
        };
    }

    static Body build(HTTPSamplerBase sampler, String method) throws IOException {
        if (!carriesBody(method)) {
            return Body.NONE;
        }
        Charset charset = charset(sampler.getContentEncoding());
        HTTPFileArg[] files = sampler.getHTTPFiles();
        if (sampler.getUseMultipart() || (files.length > 0 && !sampler.getSendFileAsPostBody() && "POST".equalsIgnoreCase(method))) {
            return multipart(sampler, files, charset);
        }
        if (sampler.getSendFileAsPostBody()) {
            HTTPFileArg file = files[0];
            byte[] bytes = Files.readAllBytes(Path.of(file.getPath()));
            return new Body(bytes, blankToNull(file.getMimeType()), "<actual file content, not shown here>");
        }
        if (sampler.getSendParameterValuesAsPostBody()) {
            StringBuilder raw = new StringBuilder();
            for (JMeterProperty property : sampler.getArguments()) {
                HTTPArgument argument = (HTTPArgument) property.getObjectValue();
                raw.append(argument.isAlwaysEncoded() ? argument.getEncodedValue(charset.name()) : argument.getValue());
            }
            String text = raw.toString();
            return new Body(text.getBytes(charset), null, text);
        }
        if (!sampler.hasArguments()) {
            return Body.NONE;
        }
        String form = sampler.getQueryString(charset.name());
        return new Body(form.getBytes(StandardCharsets.US_ASCII),
                "application/x-www-form-urlencoded; charset=" + charset.name(), form);
    }

    private static Body multipart(HTTPSamplerBase sampler, HTTPFileArg[] files, Charset charset) throws IOException {
        String boundary = "h2bench-" + UUID.randomUUID();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringBuilder display = new StringBuilder();
        for (JMeterProperty property : sampler.getArguments()) {
            Argument argument = (Argument) property.getObjectValue();
            String head = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + argument.getName() + "\"\r\n\r\n";
            write(out, display, head + argument.getValue() + "\r\n", charset);
        }
        for (HTTPFileArg file : files) {
            Path path = Path.of(file.getPath());
            String mime = file.getMimeType() == null || file.getMimeType().isBlank() ? "application/octet-stream" : file.getMimeType();
            String head = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + file.getParamName()
                    + "\"; filename=\"" + path.getFileName() + "\"\r\nContent-Type: " + mime + "\r\n\r\n";
            write(out, display, head, charset);
            out.write(Files.readAllBytes(path));
            display.append("<actual file content, not shown here>");
            write(out, display, "\r\n", charset);
        }
        write(out, display, "--" + boundary + "--\r\n", charset);
        return new Body(out.toByteArray(), "multipart/form-data; boundary=" + boundary, display.toString());
    }

    private static void write(ByteArrayOutputStream out, StringBuilder display, String text, Charset charset) {
        byte[] bytes = text.getBytes(charset);
        out.write(bytes, 0, bytes.length);
        display.append(text);
    }

    private static Charset charset(String encoding) {
        try {
            return encoding == null || encoding.isBlank() ? StandardCharsets.UTF_8 : Charset.forName(encoding.trim());
        } catch (IllegalArgumentException unknown) {
            return StandardCharsets.UTF_8;
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
