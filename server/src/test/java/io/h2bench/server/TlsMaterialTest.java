package io.h2bench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsMaterialTest {

    @Test
    void shouldGenerateOnceAndReuseWhenStartedTwice(@TempDir Path dir) throws Exception {
        Path store = dir.resolve("sub/localhost.p12");

        TlsMaterial first = TlsMaterial.load(store, "secret", true);
        TlsMaterial second = TlsMaterial.load(store, "secret", true);

        assertThat(first.generated()).isTrue();
        assertThat(second.generated()).isFalse();
        assertThat(second.fingerprint()).isEqualTo(first.fingerprint()).matches("([0-9A-F]{2}:){31}[0-9A-F]{2}");
    }

    @Test
    void shouldCoverLocalhostAndBothLoopbackAddressesWhenGenerated(@TempDir Path dir) throws Exception {
        Path store = dir.resolve("localhost.p12");
        TlsMaterial.load(store, "secret", true);

        List<String> names = alternativeNames(store);

        assertThat(names).contains("localhost", "127.0.0.1", "h2bench.test", "*.h2bench.test")
                .anyMatch(n -> n.startsWith("0:0:0:0:0:0:0:1"));
        assertThat(keyStore(store).isKeyEntry(TlsMaterial.ALIAS)).isTrue();
    }

    @Test
    void shouldGenerateAgainWhenAnOlderStoreLacksTheSeedDomains(@TempDir Path dir) throws Exception {
        Path store = dir.resolve("localhost.p12");
        // What versions before seed 001's page generated: localhost and the loopback addresses only.
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "h2bench", "-keyalg", "RSA", "-keysize", "2048", "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", "secret", "-dname", "CN=localhost",
                "-ext", "SAN=dns:localhost,ip:127.0.0.1").inheritIO().start();
        assertThat(keytool.waitFor()).isZero();
        String older = TlsMaterial.load(store, "secret", false).fingerprint();

        TlsMaterial renewed = TlsMaterial.load(store, "secret", true);

        assertThat(renewed.generated()).isTrue();
        assertThat(renewed.fingerprint()).isNotEqualTo(older);
        assertThat(TlsMaterial.load(store, "secret", true).generated()).isFalse();
    }

    @Test
    void shouldGenerateAgainWhenTheStoreLacksAnAddressTheServerAnswersOnAndKeepTheOldOnes(@TempDir Path dir) throws Exception {
        Path store = dir.resolve("localhost.p12");
        TlsMaterial.load(store, "secret", true);

        TlsMaterial firstLink = TlsMaterial.load(store, "secret", true, List.of("198.18.0.2"));
        TlsMaterial secondLink = TlsMaterial.load(store, "secret", true, List.of("198.18.0.6"));
        TlsMaterial firstAgain = TlsMaterial.load(store, "secret", true, List.of("198.18.0.2", "::1"));

        assertThat(firstLink.generated()).as("the link's address was missing").isTrue();
        assertThat(secondLink.generated()).isTrue();
        assertThat(firstAgain.generated()).as("both links' addresses are named now").isFalse();
        assertThat(alternativeNames(store)).contains("localhost", "*.h2bench.test", "127.0.0.1", "198.18.0.2", "198.18.0.6");
    }

    @Test
    void shouldGenerateAnEcdsaP256KeyWhenNoProfileIsNamed(@TempDir Path dir) throws Exception {
        Path store = dir.resolve("localhost-ecdsa.p12");

        TlsMaterial tls = TlsMaterial.load(store, "secret", true);

        assertThat(tls.keyDescription()).isEqualTo("ECDSA P-256");
        X509Certificate certificate = (X509Certificate) keyStore(store).getCertificate(TlsMaterial.ALIAS);
        assertThat(certificate.getSigAlgName()).isEqualTo("SHA256withECDSA");
        assertThat(TlsMaterial.defaultKeystore().getFileName()).hasToString("localhost-ecdsa.p12");
        // GnuTLS (gtlsserver, the h3 peers' server) reads an exported EC key only with its public key inside.
        byte[] pkcs8 = keyStore(store).getKey(TlsMaterial.ALIAS, "secret".toCharArray()).getEncoded();
        org.bouncycastle.asn1.sec.ECPrivateKey inner = org.bouncycastle.asn1.sec.ECPrivateKey.getInstance(
                org.bouncycastle.asn1.pkcs.PrivateKeyInfo.getInstance(pkcs8).parsePrivateKey());
        assertThat(inner.getPublicKey()).as("the public key inside the private key's encoding").isNotNull();
    }

    @Test
    void shouldKeepTheRsaKeyInTheFileOlderVersionsUseWhenTheJsseProfileAsksForIt(@TempDir Path dir) throws Exception {
        Path store = dir.resolve("localhost.p12");

        TlsMaterial tls = TlsMaterial.load(store, "secret", true, List.of(), TlsProfile.KeyType.RSA_2048);

        assertThat(tls.keyDescription()).isEqualTo("RSA 2048");
        assertThat(TlsMaterial.defaultKeystore(TlsProfile.KeyType.RSA_2048).getFileName()).hasToString("localhost.p12");
        assertThat(TlsMaterial.load(store, "secret", true, List.of(), TlsProfile.KeyType.RSA_2048).generated()).isFalse();
    }

    @Test
    void shouldGenerateAgainWhenAGeneratedStoreHoldsAnotherKindOfKey(@TempDir Path dir) throws Exception {
        Path store = dir.resolve("localhost-ecdsa.p12");
        TlsMaterial.load(store, "secret", true, List.of("198.18.0.2"), TlsProfile.KeyType.RSA_2048);

        TlsMaterial renewed = TlsMaterial.load(store, "secret", true, List.of(), TlsProfile.KeyType.ECDSA_P256);

        assertThat(renewed.generated()).isTrue();
        assertThat(renewed.keyDescription()).isEqualTo("ECDSA P-256");
        assertThat(alternativeNames(store)).as("the addresses it named before").contains("198.18.0.2");
    }

    @Test
    void shouldServeTheUsersKeyAsItIsWhenTheStoreIsTheirs(@TempDir Path dir) throws Exception {
        Path store = dir.resolve("mine.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "mine", "-keyalg", "RSA", "-keysize", "3072", "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", "secret", "-dname", "CN=example").inheritIO().start();
        assertThat(keytool.waitFor()).isZero();
        byte[] before = Files.readAllBytes(store);

        TlsMaterial tls = TlsMaterial.load(store, "secret", false);

        assertThat(tls.keyDescription()).isEqualTo("RSA 3072");
        assertThat(tls.generated()).isFalse();
        assertThat(Files.readAllBytes(store)).isEqualTo(before);
    }

    @Test
    void shouldSaySoWhenThePasswordIsWrong(@TempDir Path dir) throws Exception {
        Path store = dir.resolve("localhost.p12");
        TlsMaterial.load(store, "secret", true);

        assertThatThrownBy(() -> TlsMaterial.load(store, "wrong", false))
                .hasMessageContaining("cannot read key store " + store);
    }

    private static List<String> alternativeNames(Path store) throws Exception {
        X509Certificate certificate = (X509Certificate) keyStore(store).getCertificate(TlsMaterial.ALIAS);
        return certificate.getSubjectAlternativeNames().stream().map(n -> n.get(1).toString()).toList();
    }

    private static KeyStore keyStore(Path store) throws Exception {
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keyStore.load(in, "secret".toCharArray());
        }
        return keyStore;
    }
}
