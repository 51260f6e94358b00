package io.h2bench.client;

import io.h2bench.server.TlsMaterial;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Base64;

/** A server's key and certificate as PEM files, for outside servers (GnuTLS, OpenSSL, Go) that read no PKCS12. */
public final class PemFiles {

    private PemFiles() {
    }

    /** {@code tls}'s key and certificate in {@code directory}: {key, certificate}; the key readable by a server's workers. */
    public static Path[] write(TlsMaterial tls, Path directory) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(tls.keystore())) {
            store.load(in, tls.password().toCharArray());
        }
        String alias = store.aliases().nextElement();
        Path key = directory.resolve("key.pem");
        Path certificate = directory.resolve("certificate.pem");
        Files.writeString(key, pem("PRIVATE KEY", store.getKey(alias, tls.password().toCharArray()).getEncoded()));
        Files.writeString(certificate, pem("CERTIFICATE", store.getCertificate(alias).getEncoded()));
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
        return new Path[] {key, certificate};
    }

    /** The project's generated certificate, made into {@code directory}'s own key store first, as PEM files. */
    public static Path[] generated(Path directory) throws IOException, GeneralSecurityException {
        return write(TlsMaterial.load(directory.resolve("h2bench.p12"), TlsMaterial.GENERATED_PASSWORD, true), directory);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
