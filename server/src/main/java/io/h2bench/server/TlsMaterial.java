package io.h2bench.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The server's TLS key store: the user's own, or a self-signed certificate for {@code localhost},
 * {@code 127.0.0.1}, {@code ::1}, {@code h2bench.test} and {@code *.h2bench.test} (seed 001's
 * 16 origins), and every other address the server answers on, generated on first use and reused
 * afterwards; a generated one that lacks a name (written by an older version, or for another link)
 * or holds another kind of key is generated again. Each kind of key ({@link TlsProfile.KeyType})
 * has a file of its own, so an ECDSA and an RSA certificate (and versions before issue 42, which
 * use the RSA one) never take turns rewriting one file.
 */
public final class TlsMaterial {

    /** Not a secret: the generated key only ever serves loopback test traffic. */
    public static final String GENERATED_PASSWORD = "h2bench";
    static final String ALIAS = "h2bench";
    /** The DNS names of a generated certificate; its IP addresses are 127.0.0.1 and ::1. */
    static final List<String> DNS_NAMES = List.of("localhost", "h2bench.test", "*.h2bench.test");
    /** Not registered with the JCA: only the generated EC key comes from it. */
    private static final BouncyCastleProvider BOUNCY_CASTLE = new BouncyCastleProvider();

    private final Path keystore;
    private final String password;
    private final String fingerprint;
    private final String keyDescription;
    private final boolean generated;

    private TlsMaterial(Path keystore, String password, String fingerprint, String keyDescription, boolean generated) {
        this.keystore = keystore;
        this.password = password;
        this.fingerprint = fingerprint;
        this.keyDescription = keyDescription;
        this.generated = generated;
    }

    /** The default location of the generated key store: {@code ~/.h2bench/localhost-ecdsa.p12} (the default profile's key). */
    public static Path defaultKeystore() {
        return defaultKeystore(TlsProfile.WEB.keyType());
    }

    /** Where a generated key store with this kind of key is kept: {@code ~/.h2bench/localhost-ecdsa.p12} or {@code localhost.p12} (RSA). */
    public static Path defaultKeystore(TlsProfile.KeyType keyType) {
        return Path.of(System.getProperty("user.home"), ".h2bench", keyType.fileName());
    }

    /** Loads {@code keystore}; if {@code generateIfMissing} and it does not exist, creates it first (ECDSA P-256). */
    public static TlsMaterial load(Path keystore, String password, boolean generateIfMissing) throws IOException {
        return load(keystore, password, generateIfMissing, List.of());
    }

    /**
     * The same, for a server that also answers on {@code addresses} (the kernel link's 198.18.N.2, a
     * bound address): a generated store whose certificate lacks one of them is generated again, for
     * them and every address it named before, so that servers on different links do not take turns.
     */
    public static TlsMaterial load(Path keystore, String password, boolean generateIfMissing, Collection<String> addresses)
            throws IOException {
        return load(keystore, password, generateIfMissing, addresses, TlsProfile.WEB.keyType());
    }

    /** The same, generating a {@code keyType} key; a generated store that holds another kind of key is generated again. */
    public static TlsMaterial load(Path keystore, String password, boolean generateIfMissing, Collection<String> addresses,
                                   TlsProfile.KeyType keyType) throws IOException {
        boolean generated = false;
        if (!Files.exists(keystore) && !generateIfMissing) {
            throw new IOException("key store not found: " + keystore);
        }
        if (generateIfMissing) {
            boolean exists = Files.exists(keystore);
            Set<String> named = exists ? alternativeNames(keystore, password) : Set.of();
            Set<String> needed = new TreeSet<>(DNS_NAMES);
            needed.addAll(ipAddresses(List.of("127.0.0.1", "::1")));
            needed.addAll(ipAddresses(addresses));
            if (!named.containsAll(needed) || exists && !keyType.algorithm().equals(certificate(keystore, password).getPublicKey().getAlgorithm())) {
                needed.addAll(named);
                writeSelfSigned(keystore, password, needed, keyType);
                generated = true;
            }
        }
        X509Certificate certificate = certificate(keystore, password);
        return new TlsMaterial(keystore, password, fingerprintOf(certificate), describe(certificate), generated);
    }

    public Path keystore() {
        return keystore;
    }

    public String password() {
        return password;
    }

    /** SHA-256 fingerprint of the server certificate, colon-separated hex as browsers show it. */
    public String fingerprint() {
        return fingerprint;
    }

    /** The certificate's key as a client sees it: {@code ECDSA P-256}, {@code RSA 2048}. */
    public String keyDescription() {
        return keyDescription;
    }

    /** True when this start created the key store. */
    public boolean generated() {
        return generated;
    }

    private static void writeSelfSigned(Path keystore, String password, Set<String> names, TlsProfile.KeyType keyType)
            throws IOException {
        try {
            KeyPairGenerator generator;
            if (keyType == TlsProfile.KeyType.ECDSA_P256) {
                // BouncyCastle's EC key encodes its public key inside the private one (RFC 5915's optional
                // field), as OpenSSL's does; the JDK's leaves it out, and GnuTLS (gtlsserver) then refuses
                // the exported key ("ASN1 parser: Element was not found").
                generator = KeyPairGenerator.getInstance(keyType.algorithm(), BOUNCY_CASTLE);
                generator.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
            } else {
                generator = KeyPairGenerator.getInstance(keyType.algorithm());
                generator.initialize(keyType.bits(), new SecureRandom());
            }
            KeyPair pair = generator.generateKeyPair();
            X509Certificate certificate = selfSign(pair, names, keyType.signature());
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry(ALIAS, pair.getPrivate(), password.toCharArray(), new Certificate[] {certificate});
            Path parent = keystore.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            // Write beside and move, so a crash never leaves a half-written key store to be reused.
            Path partial = Files.createTempFile(parent, "keystore", ".tmp");
            try (OutputStream out = Files.newOutputStream(partial)) {
                store.store(out, password.toCharArray());
            }
            Files.move(partial, keystore, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IOException("cannot generate a self-signed certificate: " + e.getMessage(), e);
        }
    }

    private static X509Certificate selfSign(KeyPair pair, Set<String> dnsNamesAndAddresses, String signature)
            throws GeneralSecurityException, OperatorCreationException, IOException {
        X500Name subject = new X500Name("CN=localhost, O=h2bench test server");
        Instant now = Instant.now();
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                subject,
                new BigInteger(64, new SecureRandom()),
                Date.from(now.minus(Duration.ofDays(1))),
                Date.from(now.plus(Duration.ofDays(3650))),
                subject,
                pair.getPublic());
        List<GeneralName> names = new ArrayList<>();
        for (String name : dnsNamesAndAddresses) {
            names.add(new GeneralName(isAddress(name) ? GeneralName.iPAddress : GeneralName.dNSName, name));
        }
        builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names.toArray(GeneralName[]::new)));
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
        ContentSigner signer = new JcaContentSignerBuilder(signature).build(pair.getPrivate());
        return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
    }

    /** The DNS names and IP addresses (in {@link #ipAddresses} form) the store's certificate names; none if unreadable as ours. */
    private static Set<String> alternativeNames(Path keystore, String password) throws IOException {
        try (InputStream in = Files.newInputStream(keystore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password == null ? null : password.toCharArray());
            X509Certificate certificate = (X509Certificate) store.getCertificate(ALIAS);
            if (certificate == null || certificate.getSubjectAlternativeNames() == null) {
                return Set.of();
            }
            Set<String> names = new TreeSet<>();
            for (List<?> name : certificate.getSubjectAlternativeNames()) {
                String value = name.get(1).toString();
                names.add(Integer.valueOf(GeneralName.iPAddress).equals(name.get(0)) ? ipAddresses(List.of(value)).get(0) : value);
            }
            return names;
        } catch (IOException | GeneralSecurityException e) {
            throw new IOException("cannot read key store " + keystore + ": " + e.getMessage(), e);
        }
    }

    /** Literal IP addresses in one canonical form ({@code ::1} and {@code 0:0:0:0:0:0:0:1} alike). */
    private static List<String> ipAddresses(Collection<String> literals) throws IOException {
        List<String> canonical = new ArrayList<>();
        for (String literal : literals) {
            if (!isAddress(literal)) {
                throw new IOException("not an IP address: " + literal);
            }
            canonical.add(InetAddress.getByName(literal).getHostAddress());
        }
        return canonical;
    }

    private static boolean isAddress(String name) {
        return name.contains(":") || name.chars().allMatch(c -> c == '.' || Character.isDigit(c));
    }

    /** The store's first certificate (the server's: a PKCS12 store of ours, or the user's, has one key entry). */
    private static X509Certificate certificate(Path keystore, String password) throws IOException {
        try (InputStream in = Files.newInputStream(keystore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password == null ? null : password.toCharArray());
            String alias = store.aliases().nextElement();
            return (X509Certificate) store.getCertificate(alias);
        } catch (IOException | GeneralSecurityException | java.util.NoSuchElementException | ClassCastException e) {
            throw new IOException("cannot read key store " + keystore + ": " + e.getMessage(), e);
        }
    }

    private static String fingerprintOf(X509Certificate certificate) throws IOException {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
            return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot read the certificate: " + e.getMessage(), e);
        }
    }

    private static String describe(X509Certificate certificate) {
        if (certificate.getPublicKey() instanceof ECPublicKey ec) {
            // The JDK names its curves "secp256r1 [NIST P-256, X9.62 prime256v1] (1.2.840.10045.3.1.7)"
            return ec.getParams().toString().contains("P-256") ? "ECDSA P-256"
                    : "ECDSA " + ec.getParams().getCurve().getField().getFieldSize() + "-bit";
        }
        if (certificate.getPublicKey() instanceof RSAPublicKey rsa) {
            return "RSA " + rsa.getModulus().bitLength();
        }
        return certificate.getPublicKey().getAlgorithm();
    }
}
