package io.h2bench.sampler;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.SecureRandom;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.protocol.http.util.HTTPArgument;
import org.apache.jmeter.protocol.http.util.HTTPFileArg;
import org.apache.jmeter.services.FileServer;
import org.apache.jmeter.testelement.property.JMeterProperty;

/**
 * multipart/form-data as JMeter's HttpClient4 sampler writes it with httpmime's
 * {@code MultipartEntityBuilder}: each part carries Content-Disposition, Content-Type and
 * Content-Transfer-Encoding in UTF-8 (RFC 6532 mode); "Use browser-compatible headers" keeps only
 * Content-Disposition (and a file's Content-Type), written in the sampler's charset (lax mode).
 */
final class MultipartBody {

    private static final char[] BOUNDARY_CHARS =
            "-_1234567890abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final StringBuilder display = new StringBuilder();
    private final String boundary = boundary();
    private final Charset charset;
    private final Charset headerCharset;
    private final boolean browserCompatible;

    private MultipartBody(Charset charset, boolean browserCompatible) {
        this.charset = charset;
        this.browserCompatible = browserCompatible;
        this.headerCharset = browserCompatible ? charset : StandardCharsets.UTF_8;
    }

    static RequestBodies.Body of(HTTPSamplerBase sampler, Charset charset) throws IOException {
        MultipartBody body = new MultipartBody(charset, sampler.getDoBrowserCompatibleMultipart());
        for (JMeterProperty property : sampler.getArguments()) {
            HTTPArgument argument = (HTTPArgument) property.getObjectValue();
            if (!argument.isSkippable(argument.getName())) {
                body.field(argument);
            }
        }
        for (HTTPFileArg file : sampler.getHTTPFiles()) {
            body.file(file);
        }
        body.text("--" + body.boundary + "--\r\n", body.headerCharset);
        return new RequestBodies.Body(body.out.toByteArray(),
                "multipart/form-data; boundary=" + body.boundary + "; charset=" + charset.name(), true,
                body.display.toString());
    }

    private void field(HTTPArgument argument) {
        String type = argument.getContentType().indexOf(';') >= 0
                ? argument.getContentType() : argument.getContentType() + "; charset=" + charset.name();
        text("--" + boundary + "\r\n", headerCharset);
        header("Content-Disposition", "form-data; name=\"" + argument.getName() + "\"");
        if (!browserCompatible) {
            header("Content-Type", type);
            header("Content-Transfer-Encoding", "8bit");
        }
        text("\r\n", headerCharset);
        text(argument.getValue(), charsetOf(type));
        text("\r\n", headerCharset);
    }

    private void file(HTTPFileArg file) throws IOException {
        java.io.File resolved = FileServer.getFileServer().getResolvedFile(file.getPath());
        String mime = RequestBodies.blankToNull(file.getMimeType());
        text("--" + boundary + "\r\n", headerCharset);
        header("Content-Disposition", "form-data; name=\"" + file.getParamName() + "\"; filename=\"" + resolved.getName() + "\"");
        header("Content-Type", mime == null ? "application/octet-stream" : mime);
        if (!browserCompatible) {
            header("Content-Transfer-Encoding", "binary");
        }
        text("\r\n", headerCharset);
        out.write(Files.readAllBytes(resolved.toPath()));
        display.append(RequestBodies.FILE_NOT_SHOWN);
        text("\r\n", headerCharset);
    }

    private void header(String name, String value) {
        text(name + ": " + value + "\r\n", headerCharset);
    }

    private void text(String text, Charset encoding) {
        byte[] bytes = text.getBytes(encoding);
        out.write(bytes, 0, bytes.length);
        display.append(text);
    }

    private Charset charsetOf(String type) {
        int at = type.toLowerCase(java.util.Locale.ROOT).indexOf("charset=");
        if (at < 0) {
            return charset;
        }
        try {
            return Charset.forName(type.substring(at + 8).split(";")[0].trim().replace("\"", ""));
        } catch (IllegalArgumentException unknown) {
            return charset;
        }
    }

    /** 30 to 40 characters from httpmime's alphabet, as its {@code generateBoundary()}. */
    private static String boundary() {
        StringBuilder boundary = new StringBuilder();
        int length = 30 + RANDOM.nextInt(11);
        for (int i = 0; i < length; i++) {
            boundary.append(BOUNDARY_CHARS[RANDOM.nextInt(BOUNDARY_CHARS.length)]);
        }
        return boundary.toString();
    }
}
