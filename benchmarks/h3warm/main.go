// Command h3warm downloads one URL over HTTP/3 on one QUIC connection: a cold download (handshake
// included), then after each idle gap the same URL again on that connection, for issue 38's reused
// connections (benchmarks/h3-peers.sh --warm). quic-go's own HTTP/3 client, independent of h2bench,
// so that the measuring client is none of the servers measured. It prints one line per download:
//
//	cold 812.4 2097152 0 0
//	warm 210.7 2097152 0 163
//
// the kind, milliseconds (cold: from dialling to the last body byte; warm: from the request to its
// last body byte), the body's bytes, the UDP datagrams the client's network namespace dropped at a
// full socket receive buffer meanwhile (Udp RcvbufErrors of /proc/net/snmp) and those quic-go
// dropped because the connection's queue of unprocessed packets (256) was full: two places where
// a burst larger than the client takes is lost before the client reads it. The flow control
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
	"sync"
	"sync/atomic"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
	"github.com/quic-go/quic-go/qlog"
	"github.com/quic-go/quic-go/qlogwriter"
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
	var qlogWritten <-chan struct{}
	drops := &queueDrops{}
	config.Tracer = func(context.Context, bool, quic.ConnectionID) qlogwriter.Trace { return drops }
	if qlogDir != "" {
		var qlogTracer func(context.Context, bool, quic.ConnectionID) qlogwriter.Trace
		qlogTracer, qlogWritten = qlogFile(qlogDir)
		config.Tracer = func(ctx context.Context, isClient bool, id quic.ConnectionID) qlogwriter.Trace {
			return both{drops, qlogTracer(ctx, isClient, id)}
		}
	}
	// The servers serve h2bench's self-signed certificate.
	tlsConfig := &tls.Config{InsecureSkipVerify: true, NextProtos: []string{http3.NextProtoH3}}

	start := time.Now()
	socketDrops, queueDropped := receiveBufferErrors(), drops.count.Load()
	conn, err := quic.DialAddr(ctx, target.Host, tlsConfig, config)
	if err != nil {
		return fmt.Errorf("dial %s: %w", target.Host, err)
	}
	defer closeAndFlush(conn, qlogWritten)
	client := (&http3.Transport{}).NewClientConn(conn)
	kind := "cold"
	for i := 0; i <= warm; i++ {
		if i > 0 {
			time.Sleep(gap)
			kind = "warm"
			start, socketDrops, queueDropped = time.Now(), receiveBufferErrors(), drops.count.Load()
		}
		bytes, err := download(ctx, client, rawURL)
		if err != nil {
			return fmt.Errorf("%s download %d: %w", kind, i, err)
		}
		elapsed := time.Since(start)
		if conn.Context().Err() != nil {
			return fmt.Errorf("%s download %d: the connection closed: %w", kind, i, context.Cause(conn.Context()))
		}
		fmt.Printf("%s %.1f %d %d %d\n", kind, float64(elapsed.Microseconds())/1000, bytes,
			receiveBufferErrors()-socketDrops, drops.count.Load()-queueDropped)
	}
	return nil
}

// closeAndFlush closes the connection and waits (up to 5 s) for its qlog, if any, to be on disk:
// quic-go writes the qlog from a goroutine that the process's exit would cut short.
func closeAndFlush(conn *quic.Conn, qlogWritten <-chan struct{}) {
	conn.CloseWithError(0, "")
	if qlogWritten == nil {
		return
	}
	select {
	case <-qlogWritten:
	case <-time.After(5 * time.Second):
		fmt.Fprintln(os.Stderr, "h3warm: the qlog was not closed within 5 s; it may be cut short")
	}
}

// qlogFile returns a tracer writing the connection's qlog to DIR/<odcid>_client.sqlog (quic-go's
// own naming), and a channel closed once that file is written and closed.
func qlogFile(dir string) (func(context.Context, bool, quic.ConnectionID) qlogwriter.Trace, <-chan struct{}) {
	written := make(chan struct{})
	tracer := func(_ context.Context, isClient bool, connID quic.ConnectionID) qlogwriter.Trace {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "h3warm: qlog:", err)
			return nil
		}
		file, err := os.Create(fmt.Sprintf("%s/%s_client.sqlog", dir, connID))
		if err != nil {
			fmt.Fprintln(os.Stderr, "h3warm: qlog:", err)
			return nil
		}
		trace := qlogwriter.NewConnectionFileSeq(&flushingFile{Writer: bufio.NewWriter(file), file: file, closed: written}, isClient, connID)
		go trace.Run()
		return trace
	}
	return tracer, written
}

// queueDrops counts the packets quic-go dropped for a full queue of unprocessed packets (its qlog
// event packet_dropped, trigger "rejected"): the receive side's own limit, which Udp RcvbufErrors
// does not see.
type queueDrops struct {
	count atomic.Int64
}

func (d *queueDrops) AddProducer() qlogwriter.Recorder { return d }
func (d *queueDrops) Close() error                     { return nil }
func (d *queueDrops) RecordEvent(event qlogwriter.Event) {
	if dropped, ok := event.(qlog.PacketDropped); ok && dropped.Trigger == qlog.PacketDropDOSPrevention {
		d.count.Add(1)
	}
}

// both records every event in the drop counter and in the qlog file.
type both struct {
	drops *queueDrops
	file  qlogwriter.Trace
}

func (b both) AddProducer() qlogwriter.Recorder {
	if b.file == nil {
		return b.drops
	}
	return recorders{b.drops, b.file.AddProducer()}
}

type recorders [2]qlogwriter.Recorder

func (r recorders) RecordEvent(event qlogwriter.Event) {
	for _, recorder := range r {
		if recorder != nil {
			recorder.RecordEvent(event)
		}
	}
}

func (r recorders) Close() error {
	for _, recorder := range r {
		if recorder != nil {
			recorder.Close()
		}
	}
	return nil
}

// flushingFile buffers the qlog's writes and, on Close, flushes them, closes the file and says so.
type flushingFile struct {
	*bufio.Writer
	file   *os.File
	closed chan struct{}
	once   sync.Once
}

func (f *flushingFile) Close() error {
	defer f.once.Do(func() { close(f.closed) })
	if err := f.Flush(); err != nil {
		f.file.Close()
		return err
	}
	return f.file.Close()
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
