package io.h2bench.server.objects;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Random;

import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/**
 * Real, decodable JPEGs of an exact byte size: a seeded picture encoded as large as fits, then
 * padded with a JPEG comment segment (which every decoder skips) up to the size asked for.
 */
final class JpegFactory {

    private static final int COMMENT_OVERHEAD = 4;
    private static final int MAX_COMMENT = 65_535 - 2;

    private JpegFactory() {
    }

    static byte[] create(int size, long seed) {
        byte[] best = null;
        double low = 0.05;
        double high = 0.6;
        // Binary search on the picture's scale for the largest encoding that still fits.
        for (int step = 0; step < 8; step++) {
            double scale = (low + high) / 2;
            byte[] encoded = encode(picture(scale, seed));
            if (encoded.length + COMMENT_OVERHEAD <= size) {
                best = encoded;
                low = scale;
            } else {
                high = scale;
            }
        }
        if (best == null) {
            throw new IllegalArgumentException("no JPEG fits in " + size + " bytes");
        }
        return pad(best, size);
    }

    private static BufferedImage picture(double scale, long seed) {
        int width = Math.max(16, (int) (720 * scale));
        int height = Math.max(16, (int) (540 * scale));
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Random random = new Random(seed);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setPaint(new java.awt.GradientPaint(0, 0, randomColor(random), width, height, randomColor(random)));
        g.fillRect(0, 0, width, height);
        for (int shape = 0; shape < 12; shape++) {
            g.setColor(randomColor(random));
            int d = (int) (random.nextInt(Math.max(1, width / 3)) + width / 10.0);
            g.fillOval(random.nextInt(width) - d / 2, random.nextInt(height) - d / 2, d, d);
        }
        g.dispose();
        // Grain, like a photograph's, so sizes resemble photos rather than flat drawings.
        int[] pixels = ((java.awt.image.DataBufferInt) image.getRaster().getDataBuffer()).getData();
        for (int i = 0; i < pixels.length; i++) {
            int rgb = pixels[i];
            int grain = random.nextInt(41) - 20;
            pixels[i] = (clamp(((rgb >> 16) & 0xff) + grain) << 16)
                    | (clamp(((rgb >> 8) & 0xff) + grain) << 8)
                    | clamp((rgb & 0xff) + grain);
        }
        return image;
    }

    private static Color randomColor(Random random) {
        return new Color(random.nextInt(256), random.nextInt(256), random.nextInt(256));
    }

    private static int clamp(int value) {
        return Math.max(0, Math.min(255, value));
    }

    private static byte[] encode(BufferedImage image) {
        ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (MemoryCacheImageOutputStream out = new MemoryCacheImageOutputStream(bytes)) {
            writer.setOutput(out);
            ImageWriteParam param = writer.getDefaultWriteParam();
            param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            param.setCompressionQuality(0.8f);
            writer.write(null, new IIOImage(image, null, null), param);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            writer.dispose();
        }
        return bytes.toByteArray();
    }

    /** Inserts COM segments right after SOI until the file is exactly {@code size} bytes. */
    private static byte[] pad(byte[] jpeg, int size) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(size);
        out.write(jpeg, 0, 2);
        int missing = size - jpeg.length;
        while (missing > 0) {
            int payload = Math.min(MAX_COMMENT, missing - COMMENT_OVERHEAD);
            if (payload < 0) {
                throw new IllegalStateException("cannot pad by " + missing + " bytes");
            }
            int length = payload + 2;
            out.write(0xFF);
            out.write(0xFE);
            out.write(length >> 8);
            out.write(length & 0xFF);
            for (int i = 0; i < payload; i++) {
                out.write(' ');
            }
            missing -= payload + COMMENT_OVERHEAD;
        }
        out.write(jpeg, 2, jpeg.length - 2);
        return out.toByteArray();
    }
}
