package io.h2bench.client.profile;

import java.security.KeyStore;

/**
 * A client certificate for TLS: the key store that holds it, its password, and the alias of the
 * entry to offer (null: the first one that fits the server's request).
 */
public record ClientCertificate(KeyStore keyStore, String password, String alias) {
}
