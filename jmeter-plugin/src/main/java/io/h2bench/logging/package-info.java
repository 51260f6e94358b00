/**
 * SLF4J for the code the plugin jar carries (shaded Jetty, the plugin's own classes), written to
 * JMeter's Log4j with each logger's levels cached until Log4j's configuration changes. Jetty asks
 * {@code isDebugEnabled()} several times per request; through JMeter's SLF4J binding each question
 * walked Log4j's filters: 1.4 to 3.5 % of the sampler's CPU samples at 50 users, 0 to 0.5 % with
 * the cache (JFR, 100 B over the four protocols, issue 20). The
 * jar relocates {@code org.slf4j} (see the shade plugin in the module's pom), so this provider
 * serves only the plugin's copy and JMeter's own SLF4J is untouched.
 */
package io.h2bench.logging;
