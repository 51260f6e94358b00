package io.h2bench.sampler;

import static org.assertj.core.api.Assertions.assertThat;

import io.h2bench.client.exchange.ProtocolMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.jmeter.config.KeystoreConfig;
import org.apache.jmeter.protocol.http.sampler.HTTPSampleResult;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerBase;
import org.apache.jmeter.protocol.http.sampler.HTTPSamplerFactory;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.util.SSLManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A key store with two client keys and a Keystore Configuration, against a server that needs a
 * client certificate and answers with the subject it saw: in each JMeter thread, HttpClient4 and
 * the h2bench sampler (h1 over TLS and h2) present the same certificate, chosen by the alias
 * variable or in turn over the index range.
 */
class ClientCertificateAliasParityTest {

    @TempDir
    Path dir;
    private ClientCertificateServer server;

    @BeforeEach
    void start() throws Exception {
        InProcessJMeter.init();
        Path keyStore = dir.resolve("clients.p12");
        ClientCertificateServer.addKey(keyStore, "alice", "alice");
        ClientCertificateServer.addKey(keyStore, "bob", "bob");
        server = new ClientCertificateServer(keyStore);
        System.setProperty("javax.net.ssl.keyStore", keyStore.toString());
        System.setProperty("javax.net.ssl.keyStorePassword", ClientCertificateServer.PASSWORD);
        SSLManager.reset();
    }

    @AfterEach
    void stop() throws Exception {
        System.clearProperty("javax.net.ssl.keyStore");
        System.clearProperty("javax.net.ssl.keyStorePassword");
        SSLManager.reset();
        new Http2Sampler().testEnded();
        server.close();
    }

    @Test
    void shouldPresentTheAliasOfTheThreadsVariableLikeHttpClient4() throws Exception {
        configureKeystore("certAlias");

        List<String> alice = thread("alice");
        List<String> bob = thread("bob");

        assertThat(alice).containsOnly("client certificate accepted: CN=alice").hasSize(3);
        assertThat(bob).containsOnly("client certificate accepted: CN=bob").hasSize(3);
    }

    @Test
    void shouldTakeTheAliasesInTurnPerThreadLikeHttpClient4WhenNoVariableIsNamed() throws Exception {
        configureKeystore("");

        List<String> first = thread(null);
        List<String> second = thread(null);

        assertThat(first).hasSize(3).allMatch(first.get(0)::equals);
        assertThat(second).hasSize(3).allMatch(second.get(0)::equals);
        assertThat(List.of(first.get(0), second.get(0)))
                .containsExactlyInAnyOrder("client certificate accepted: CN=alice", "client certificate accepted: CN=bob");
    }

    @Test
    void shouldPresentTheFirstKeyInEveryThreadLikeHttpClient4WhenThePlanHasNoKeystoreConfiguration() throws Exception {
        List<String> first = thread(null);
        List<String> second = thread(null);

        assertThat(first).hasSize(3).allMatch(first.get(0)::equals).allMatch(body -> body.startsWith("client certificate accepted"));
        assertThat(second).isEqualTo(first);
    }

    /** A Keystore Configuration over both keys, as JMeter starts it at test start. */
    private static void configureKeystore(String aliasVariable) {
        KeystoreConfig config = new KeystoreConfig();
        config.setPreload("true");
        config.setStartIndex("0");
        config.setEndIndex("1");
        config.setClientCertAliasVarName(aliasVariable);
        config.testStarted();
    }

    /** One JMeter thread (its own thread, as HttpClient4's SSL context is per thread): HC4, h1, h2 response bodies. */
    private List<String> thread(String certAlias) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
            JMeterVariables variables = new JMeterVariables();
            if (certAlias != null) {
                variables.put("certAlias", certAlias);
            }
            JMeterContextService.getContext().setVariables(variables);
            HTTPSamplerBase theirs = ClientCertificateServer.aim(HTTPSamplerFactory.newInstance(HTTPSamplerFactory.IMPL_HTTP_CLIENT4), server.h1Port());
            Http2Sampler ours = new Http2Sampler();
            List<String> bodies = new ArrayList<>();
            try {
                bodies.add(body(theirs.sample()));
                ours.setHttpVersion(ProtocolMode.HTTP_1_1);
                bodies.add(body(ClientCertificateServer.aim(ours, server.h1Port()).sample()));
                ours.setHttpVersion(ProtocolMode.HTTP_2);
                bodies.add(body(ClientCertificateServer.aim(ours, server.h2Port()).sample()));
            } finally {
                theirs.threadFinished();
                ours.threadFinished();
            }
            return bodies;
        }, runnable -> new Thread(runnable, "jmeter-user").start()).get(60, TimeUnit.SECONDS);
    }

    private static String body(org.apache.jmeter.samplers.SampleResult result) {
        HTTPSampleResult http = (HTTPSampleResult) result;
        return http.isSuccessful() ? http.getResponseDataAsString() : http.getResponseMessage();
    }
}
