package io.h2bench.sampler;

import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Locale;
import java.util.StringJoiner;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.protocol.http.util.HTTPArgument;
import org.apache.jmeter.protocol.http.util.HTTPFileArg;
import org.apache.jmeter.services.FileServer;
import org.apache.jmeter.testelement.property.JMeterProperty;

/**
 * Builds a request body exactly as JMeter's HttpClient4 sampler does
 * ({@code HTTPHC4Impl.setupHttpEntityEnclosingRequestData}), from the sampler's fields: multipart,
 * one file as the body, raw "Body Data" ({@code text/plain; charset=…} unless the Header Manager or
 * the file says otherwise), or an urlencoded form whose values are decoded first when "URL Encode?"
 * is unchecked, then encoded, as HttpClient's {@code UrlEncodedFormEntity} does. GET carries a body
 * only for "Body Data" or a file, as HttpClient4's {@code HttpGetWithEntity}.
 */
final class RequestBodies {

    /**
     * A body ready to send.
     *
     * @param contentType          its type; null: none (leave it to the Header Manager)
     * @param replacesContentType  true for multipart: its boundary must win over a Header Manager's type
     * @param display              what JMeter shows as the request body
     */
    record Body(byte[] bytes, String contentType, boolean replacesContentType, String display) {
        static final Body NONE = new Body(new byte[0], null, false, "");
    }

    static final String FILE_NOT_SHOWN = "<actual file content, not shown here>";

    private RequestBodies() {
    }

    /** Whether HttpClient4 would build an entity-enclosing request for this method and sampler. */
    static boolean carriesBody(HTTPSamplerBase sampler, String method, boolean followingRedirect) {
        return switch (method.toUpperCase(Locale.ROOT)) {
            case "POST", "PUT", "PATCH", "DELETE" -> true;
            case "GET" -> !followingRedirect && (rawFile(sampler) || sampler.getSendParameterValuesAsPostBody());
            default -> false;
        };
    }

    static Body build(HTTPSamplerBase sampler, String method, boolean followingRedirect) throws IOException {
        if (!carriesBody(sampler, method, followingRedirect)) {
            return Body.NONE;
        }
        Charset charset = Charset.forName(sampler.getContentEncoding());
        if (sampler.getUseMultipart()) {
            return MultipartBody.of(sampler, charset);
        }
        HTTPFileArg[] files = sampler.getHTTPFiles();
        if (rawFile(sampler)) {
            byte[] bytes = Files.readAllBytes(FileServer.getFileServer().getResolvedFile(files[0].getPath()).toPath());
            return new Body(bytes, blankToNull(files[0].getMimeType()), false, FILE_NOT_SHOWN);
        }
        if (sampler.getSendParameterValuesAsPostBody()) {
            return raw(sampler, files, charset);
        }
        String form = form(sampler, charset);
        return new Body(form.getBytes(StandardCharsets.US_ASCII),
                "application/x-www-form-urlencoded; charset=" + charset.name(), false, form);
    }

    private static boolean rawFile(HTTPSamplerBase sampler) {
        return !sampler.hasArguments() && sampler.getSendFileAsPostBody();
    }

    /** Values joined as typed ("URL Encode?" applied where checked), sent as text in the sampler's charset. */
    private static Body raw(HTTPSamplerBase sampler, HTTPFileArg[] files, Charset charset) throws IOException {
        StringBuilder text = new StringBuilder();
        for (JMeterProperty property : sampler.getArguments()) {
            text.append(((HTTPArgument) property.getObjectValue()).getEncodedValue(charset.name()));
        }
        String mime = files.length > 0 ? blankToNull(files[0].getMimeType()) : null;
        String type = mime != null ? mime : "text/plain; charset=" + charset.name();
        return new Body(text.toString().getBytes(charset), type, false, text.toString());
    }

    /**
     * {@code name=value&…}: a value entered already encoded ("URL Encode?" unchecked) is decoded first,
     * then every name and value is encoded, so both kinds end up encoded once.
     */
    static String form(HTTPSamplerBase sampler, Charset charset) {
        StringJoiner form = new StringJoiner("&");
        for (JMeterProperty property : sampler.getArguments()) {
            HTTPArgument argument = (HTTPArgument) property.getObjectValue();
            String name = argument.getName();
            if (argument.isSkippable(name)) {
                continue;
            }
            String value = argument.getValue();
            if (!argument.isAlwaysEncoded()) {
                name = URLDecoder.decode(name, charset);
                value = URLDecoder.decode(value, charset);
            }
            form.add(URLEncoder.encode(name, charset) + "=" + URLEncoder.encode(value, charset));
        }
        return form.toString();
    }

    static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
