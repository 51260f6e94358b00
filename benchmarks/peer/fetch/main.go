// Command fetch makes one request with Go's net/http client and prints what came back, for the
// interop matrix's other direction (issue 39: outside clients against h2bench's listeners):
//
//	status=200 protocol=HTTP/2.0 bytes=45056 sha256=... x-request-body-bytes=54000
//
// -protocol picks what the transport may speak: h1 (HTTP/1.1, in clear text or over TLS), h2
// (HTTP/2 over TLS, by ALPN) or h2c (HTTP/2 in clear text by prior knowledge, Go 1.24's
// Protocols.SetUnencryptedHTTP2). net/http has no h2c Upgrade client and no HTTP/3.
//
//	go run ./fetch -protocol h2 -method POST -data body.bin 'https://127.0.0.1:8002/option?size=100'
package main

import (
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

func main() {
	protocol := flag.String("protocol", "h1", "h1, h2 or h2c")
	method := flag.String("method", "GET", "the request's method")
	data := flag.String("data", "", "a file sent as the request's body")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: fetch [-protocol h1|h2|h2c] [-method METHOD] [-data FILE] URL")
		os.Exit(2)
	}
	if err := fetch(*protocol, *method, *data, flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "fetch:", err)
		os.Exit(1)
	}
}

func fetch(protocol, method, data, url string) error {
	protocols := new(http.Protocols)
	switch protocol {
	case "h1":
		protocols.SetHTTP1(true)
	case "h2":
		protocols.SetHTTP2(true)
	case "h2c":
		protocols.SetUnencryptedHTTP2(true)
	default:
		return fmt.Errorf("unknown protocol %q (h1, h2, h2c)", protocol)
	}
	transport := &http.Transport{
		Protocols:          protocols,
		TLSClientConfig:    &tls.Config{InsecureSkipVerify: true}, // h2bench's own certificate
		DisableCompression: true,                                  // the body as the server sent it
	}
	var body io.Reader
	if data != "" {
		file, err := os.Open(data)
		if err != nil {
			return err
		}
		defer file.Close()
		body = file
	}
	request, err := http.NewRequest(method, url, body)
	if err != nil {
		return err
	}
	if data != "" {
		info, err := os.Stat(data)
		if err != nil {
			return err
		}
		request.ContentLength = info.Size()
	}
	client := &http.Client{Transport: transport, Timeout: 30 * time.Second}
	response, err := client.Do(request)
	if err != nil {
		return err
	}
	defer response.Body.Close()
	digest := sha256.New()
	bytes, err := io.Copy(digest, response.Body)
	if err != nil {
		return err
	}
	fmt.Printf("status=%d protocol=%s bytes=%d sha256=%s x-request-body-bytes=%s\n", response.StatusCode, response.Proto,
		bytes, hex.EncodeToString(digest.Sum(nil)), response.Header.Get("X-Request-Body-Bytes"))
	return nil
}
