// Command peer downloads URLs in turn, round after round, with Go's own HTTP stack (net/http: HTTP/1.1,
// HTTP/1.1 over TLS, HTTP/2 over TLS and h2c), the truth benchmark's peer for every protocol. It
// prints one line per download: the URL's place in the arguments, elapsed (request start, connect included, to the last body byte),
// latency (to the first response byte) and connect, in milliseconds, as JMeter defines them.
//
// -rcvbuf sets SO_RCVBUF on each socket before it connects, as the h2bench sampler does, so that
// both clients' TCP windows follow the network; 0 leaves Linux's receive autotuning on, as curl
// and HttpClient4 run.
//
//	go run . -protocol h2 -connections reused -n 10 -rcvbuf 4194304 https://198.18.0.2:8443/option?size=44k https://198.18.0.2:8443/option?size=2m
package main

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"os"
	"syscall"
	"time"
)

func main() {
	protocol := flag.String("protocol", "h1", "h1, h1-tls, h2 or h2c")
	connections := flag.String("connections", "new", "new: a connection per download; reused: one for all")
	rounds := flag.Int("n", 10, "rounds: each downloads every URL once, in order")
	rcvbuf := flag.Int("rcvbuf", 0, "SO_RCVBUF in bytes before connect; 0 keeps the kernel's autotuning")
	flag.Parse()
	if flag.NArg() < 1 || *rounds < 1 || (*connections != "new" && *connections != "reused") {
		fmt.Fprintln(os.Stderr, "usage: peer [-protocol h1|h1-tls|h2|h2c] [-connections new|reused] [-n ROUNDS] [-rcvbuf BYTES] URL...")
		os.Exit(2)
	}
	transport, err := newTransport(*protocol, *rcvbuf)
	if err != nil {
		fmt.Fprintln(os.Stderr, "peer:", err)
		os.Exit(2)
	}
	fmt.Println("round,url,elapsed_ms,latency_ms,connect_ms,bytes,protocol")
	for round := 1; round <= *rounds; round++ {
		for index, url := range flag.Args() {
			if *connections == "new" {
				transport.CloseIdleConnections()
			}
			sample, err := download(transport, url)
			if err != nil {
				fmt.Fprintln(os.Stderr, "peer:", err)
				os.Exit(1)
			}
			fmt.Printf("%d,%d,%s\n", round, index, sample)
		}
	}
}

func newTransport(protocol string, rcvbuf int) (*http.Transport, error) {
	dialer := &net.Dialer{Timeout: 30 * time.Second, Control: receiveBuffer(rcvbuf)}
	transport := &http.Transport{
		DialContext:     dialer.DialContext,
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, // the test server's own certificate
		// The body arrives as sent: no gzip negotiated, as the sampler's and curl's defaults.
		DisableCompression:  true,
		MaxIdleConnsPerHost: 1,
	}
	protocols := new(http.Protocols)
	switch protocol {
	case "h1", "h1-tls":
		protocols.SetHTTP1(true)
	case "h2":
		protocols.SetHTTP2(true)
	case "h2c":
		protocols.SetUnencryptedHTTP2(true) // prior knowledge, as the sampler's h2c
	default:
		return nil, fmt.Errorf("unknown protocol %q (h1, h1-tls, h2, h2c)", protocol)
	}
	transport.Protocols = protocols
	return transport, nil
}

func receiveBuffer(bytes int) func(string, string, syscall.RawConn) error {
	if bytes <= 0 {
		return nil
	}
	return func(_, _ string, conn syscall.RawConn) error {
		var setErr error
		err := conn.Control(func(fd uintptr) {
			setErr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, bytes)
		})
		if err != nil {
			return err
		}
		return setErr
	}
}

func download(transport *http.Transport, url string) (string, error) {
	var connectStart, connectEnd, firstByte time.Time
	trace := &httptrace.ClientTrace{
		ConnectStart:         func(string, string) { connectStart = time.Now() },
		GotConn:              func(httptrace.GotConnInfo) { connectEnd = time.Now() },
		GotFirstResponseByte: func() { firstByte = time.Now() },
	}
	request, err := http.NewRequestWithContext(httptrace.WithClientTrace(context.Background(), trace), "GET", url, nil)
	if err != nil {
		return "", err
	}
	start := time.Now()
	response, err := transport.RoundTrip(request)
	if err != nil {
		return "", err
	}
	bytes, err := io.CopyBuffer(io.Discard, response.Body, make([]byte, 256*1024))
	response.Body.Close()
	end := time.Now()
	if err != nil {
		return "", err
	}
	if response.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s answered %s", url, response.Status)
	}
	connect := 0.0
	if !connectStart.IsZero() {
		connect = millis(connectEnd.Sub(start))
	}
	return fmt.Sprintf("%.1f,%.1f,%.1f,%d,%s", millis(end.Sub(start)), millis(firstByte.Sub(start)), connect, bytes, response.Proto), nil
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
