// Command h3server serves a directory over HTTP/3 with quic-go's own server (the module version in
// go.mod), for issue 38's peers (benchmarks/h3-peers.sh, server "quic-go"): a maintained QUIC stack
// of today, where Debian's Caddy 2.6 carries a quic-go of 2022. quic-go's settings as they ship:
// an initial window of 32 packets, its CUBIC (with hybrid slow start, HyStart) and its token-bucket pacer, none of
// which quic-go lets a server set. It prints "listening on ADDRESS" once the UDP socket is bound,
// and serves until killed.
//
//	go run . -addr 198.18.0.2:4433 -cert cert.pem -key key.pem -dir docs [-qlog-dir DIR]
package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"path"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
	"github.com/quic-go/quic-go/qlogwriter"
)

func main() {
	addr := flag.String("addr", "", "UDP address to serve on, host:port")
	certFile := flag.String("cert", "", "certificate chain, PEM")
	keyFile := flag.String("key", "", "private key, PEM")
	dir := flag.String("dir", "", "directory whose files are served")
	qlogDir := flag.String("qlog-dir", "", "write each connection's qlog into this directory")
	flag.Parse()
	if *addr == "" || *certFile == "" || *keyFile == "" || *dir == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: h3server -addr HOST:PORT -cert PEM -key PEM -dir DIR [-qlog-dir DIR]")
		os.Exit(2)
	}
	if err := serve(*addr, *certFile, *keyFile, *dir, *qlogDir); err != nil {
		fmt.Fprintln(os.Stderr, "h3server:", err)
		os.Exit(1)
	}
}

func serve(addr, certFile, keyFile, dir, qlogDir string) error {
	certificate, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return err
	}
	socket, err := net.ListenPacket("udp", addr)
	if err != nil {
		return err
	}
	config := &quic.Config{}
	if qlogDir != "" {
		config.Tracer = qlogTracer(qlogDir)
	}
	server := &http3.Server{
		Handler:    files(dir),
		TLSConfig:  http3.ConfigureTLSConfig(&tls.Config{Certificates: []tls.Certificate{certificate}}),
		QUICConfig: config,
	}
	fmt.Println("listening on", socket.LocalAddr())
	return server.Serve(socket)
}

// files serves DIR's files as they are, index.html too (http.FileServer would redirect a request
// for it to its directory, where the other servers answer it).
func files(dir string) http.Handler {
	root := http.Dir(dir)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		file, err := root.Open(path.Clean("/" + r.URL.Path))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		defer file.Close()
		info, err := file.Stat()
		if err != nil || info.IsDir() {
			http.NotFound(w, r)
			return
		}
		http.ServeContent(w, r, info.Name(), info.ModTime(), file)
	})
}

// qlogTracer writes each connection's qlog to DIR/<odcid>_server.sqlog (quic-go's own naming).
func qlogTracer(dir string) func(context.Context, bool, quic.ConnectionID) qlogwriter.Trace {
	return func(_ context.Context, isClient bool, connID quic.ConnectionID) qlogwriter.Trace {
		file, err := os.Create(fmt.Sprintf("%s/%s_server.sqlog", dir, connID))
		if err != nil {
			fmt.Fprintln(os.Stderr, "h3server: qlog:", err)
			return nil
		}
		trace := qlogwriter.NewConnectionFileSeq(&flushingFile{Writer: bufio.NewWriter(file), file: file}, isClient, connID)
		go trace.Run()
		return trace
	}
}

// flushingFile flushes its buffer and closes the file when the trace ends.
type flushingFile struct {
	*bufio.Writer
	file *os.File
}

func (f *flushingFile) Close() error {
	if err := f.Flush(); err != nil {
		f.file.Close()
		return err
	}
	return f.file.Close()
}
