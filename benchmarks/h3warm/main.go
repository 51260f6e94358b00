// Command h3warm downloads one URL over HTTP/3 on one QUIC connection: a cold download (handshake
// included), then after each idle gap the same URL again on that connection, for issue 38's reused
// connections (benchmarks/h3-peers.sh --warm). quic-go's own HTTP/3 client, independent of h2bench,
// so that the measuring client is none of the servers measured. It prints one line per download:
//
//	cold 812.4 2097152 0
//	warm 210.7 2097152 0
//
// the kind, milliseconds (cold: from dialling to the last body byte; warm: from the request to its
// last body byte), the body's bytes and the UDP datagrams the client's network namespace dropped at
// a full socket receive buffer meanwhile (Udp RcvbufErrors of /proc/net/snmp). The flow control
// windows are gtlsclient's defaults (15 MiB for the connection, 6 MiB per stream), fixed from the
// start so that auto-tuning never paces a download. Exits 1 with a message on stderr when a download
// fails or the connection was not kept.
//
//	go run . -gap 1.75s -warm 1 'https://198.18.0.2:4433/option?size=2m'
package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
	"github.com/quic-go/quic-go/qlog"
)

const (
	connectionWindow = 15 << 20
	streamWindow     = 6 << 20
)

func main() {
	gap := flag.Duration("gap", 1750*time.Millisecond, "idle time between one download's last byte and the next request")
	warm := flag.Int("warm", 1, "warm downloads after the cold one, each after the gap")
	timeout := flag.Duration("timeout", 120*time.Second, "time all downloads together may take")
	qlogDir := flag.String("qlog-dir", "", "write the client's qlog into this directory")
	flag.Parse()
	if flag.NArg() != 1 || *warm < 0 || *gap < 0 {
		fmt.Fprintln(os.Stderr, "usage: h3warm [-gap DURATION] [-warm N] [-timeout DURATION] [-qlog-dir DIR] URL")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *gap, *warm, *timeout, *qlogDir); err != nil {
		fmt.Fprintln(os.Stderr, "h3warm:", err)
		os.Exit(1)
	}
}

func run(rawURL string, gap time.Duration, warm int, timeout time.Duration, qlogDir string) error {
	target, err := url.Parse(rawURL)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	config := &quic.Config{
		InitialStreamReceiveWindow:     streamWindow,
		MaxStreamReceiveWindow:         streamWindow,
		InitialConnectionReceiveWindow: connectionWindow,
		MaxConnectionReceiveWindow:     connectionWindow,
		MaxIdleTimeout:                 30 * time.Second,
	}
	if qlogDir != "" {
		if err := os.Setenv("QLOGDIR", qlogDir); err != nil {
			return err
		}
		config.Tracer = qlog.DefaultConnectionTracer
	}
	// The servers serve h2bench's self-signed certificate.
	tlsConfig := &tls.Config{InsecureSkipVerify: true, NextProtos: []string{http3.NextProtoH3}}

	start := time.Now()
	drops := receiveBufferErrors()
	conn, err := quic.DialAddr(ctx, target.Host, tlsConfig, config)
	if err != nil {
		return fmt.Errorf("dial %s: %w", target.Host, err)
	}
	defer conn.CloseWithError(0, "")
	client := (&http3.Transport{}).NewClientConn(conn)
	kind := "cold"
	for i := 0; i <= warm; i++ {
		if i > 0 {
			time.Sleep(gap)
			kind = "warm"
			start, drops = time.Now(), receiveBufferErrors()
		}
		bytes, err := download(ctx, client, rawURL)
		if err != nil {
			return fmt.Errorf("%s download %d: %w", kind, i, err)
		}
		elapsed := time.Since(start)
		if conn.Context().Err() != nil {
			return fmt.Errorf("%s download %d: the connection closed: %w", kind, i, context.Cause(conn.Context()))
		}
		fmt.Printf("%s %.1f %d %d\n", kind, float64(elapsed.Microseconds())/1000, bytes, receiveBufferErrors()-drops)
	}
	return nil
}

// download asks for the URL on the connection and reads the whole body; it returns the body's length.
func download(ctx context.Context, client *http3.ClientConn, rawURL string) (int64, error) {
	request, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return 0, err
	}
	response, err := client.RoundTrip(request)
	if err != nil {
		return 0, err
	}
	defer response.Body.Close()
	bytes, err := io.Copy(io.Discard, response.Body)
	if err != nil {
		return bytes, err
	}
	if response.StatusCode != http.StatusOK {
		return bytes, fmt.Errorf("status %d", response.StatusCode)
	}
	if response.ContentLength >= 0 && bytes != response.ContentLength {
		return bytes, fmt.Errorf("%d of %d bytes", bytes, response.ContentLength)
	}
	return bytes, nil
}

// receiveBufferErrors reads Udp RcvbufErrors from /proc/net/snmp: datagrams the namespace's UDP
// sockets dropped at a full receive buffer; -1 if it cannot be read.
func receiveBufferErrors() int64 {
	file, err := os.Open("/proc/net/snmp")
	if err != nil {
		return -1
	}
	defer file.Close()
	var names []string
	scanner := bufio.NewScanner(file)
	for scanner.Scan() {
		fields := strings.Fields(scanner.Text())
		if len(fields) == 0 || fields[0] != "Udp:" {
			continue
		}
		if names == nil {
			names = fields
			continue
		}
		for i, name := range names {
			if name == "RcvbufErrors" && i < len(fields) {
				value, err := strconv.ParseInt(fields[i], 10, 64)
				if err == nil {
					return value
				}
			}
		}
		return -1
	}
	return -1
}
