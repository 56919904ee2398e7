// SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0

// Command tlspeer is the Go side of make tls-matrix: a crypto/tls server
// or client with Go's defaults, standard library only. Go's net package
// sets TCP_NODELAY on every TCP connection; -nagle turns it off on the
// server's connections (the client takes it per command).
//
//	tlspeer server -cert <cert.pem> -key <key.pem> [-nagle]
//
// listens on 127.0.0.1, prints "ports <port>", and serves until its stdin
// ends: each connection reads the client's 32-byte request (the handshake
// runs first), writes a 32-byte response ending with a newline, and reads
// until the client closes. Session tickets are Go's default (one in TLS
// 1.3); no client here resumes.
//
//	tlspeer client -ca <cert.pem>
//
// prints "ready <go version>" and reads commands on stdin, answering each
// with one line, as make/src/classes/build/tools/tlsmatrix/TlsClient does:
//
//	run <host> <port> <TLSv1.2|TLSv1.3> <nodelay 0|1> <explicit 0|1> <count>
//	    -> ok <microseconds> ... (-1 for a failed connection, reported on stderr)
//	quit
//
// Each connection has a fresh tls.Config without a ClientSessionCache (a
// full handshake), only the asked version, and the server's certificate
// verified against -ca for the name localhost. It is timed from before the
// dial to the last byte of the response: dial, Handshake() if explicit
// (else the first write runs it), the request in one write, the response.
package main

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

const (
	message = 32
	timeout = 10 * time.Second
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: tlspeer server|client <options>")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "server":
		err = server(os.Args[2:])
	case "client":
		err = client(os.Args[2:])
	default:
		err = fmt.Errorf("unknown mode %q: server or client", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tlspeer:", err)
		os.Exit(1)
	}
}

func line(fill byte) []byte {
	b := bytes.Repeat([]byte{fill}, message)
	b[message-1] = '\n'
	return b
}

func server(args []string) error {
	flags := flag.NewFlagSet("server", flag.ContinueOnError)
	certFile := flags.String("cert", "", "certificate (PEM)")
	keyFile := flags.String("key", "", "private key (PEM)")
	nagle := flags.Bool("nagle", false, "leave TCP_NODELAY off")
	if err := flags.Parse(args); err != nil {
		return err
	}
	cert, err := tls.LoadX509KeyPair(*certFile, *keyFile)
	if err != nil {
		return err
	}
	config := &tls.Config{Certificates: []tls.Certificate{cert}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Printf("ports %d\n", ln.Addr().(*net.TCPAddr).Port)
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				fmt.Fprintln(os.Stderr, "accept:", err)
				return
			}
			if *nagle {
				if err := conn.(*net.TCPConn).SetNoDelay(false); err != nil {
					fmt.Fprintln(os.Stderr, "SetNoDelay:", err)
				}
			}
			go serve(tls.Server(conn, config))
		}
	}()
	// Serve until the parent closes our stdin.
	_, err = io.Copy(io.Discard, os.Stdin)
	return err
}

func serve(conn *tls.Conn) {
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(timeout)); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		return
	}
	request := make([]byte, message)
	if _, err := io.ReadFull(conn, request); err != nil {
		fmt.Fprintln(os.Stderr, "serve: request:", err)
		return
	}
	if _, err := conn.Write(line('r')); err != nil {
		fmt.Fprintln(os.Stderr, "serve: response:", err)
		return
	}
	if _, err := io.Copy(io.Discard, conn); err != nil {
		fmt.Fprintln(os.Stderr, "serve: until close:", err)
	}
}

var versions = map[string]uint16{"TLSv1.2": tls.VersionTLS12, "TLSv1.3": tls.VersionTLS13}

func client(args []string) error {
	flags := flag.NewFlagSet("client", flag.ContinueOnError)
	caFile := flags.String("ca", "", "the server's certificate or its CA (PEM)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	pem, err := os.ReadFile(*caFile)
	if err != nil {
		return err
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		return fmt.Errorf("no certificate in %s", *caFile)
	}
	fmt.Println("ready", runtime.Version())
	commands := bufio.NewScanner(os.Stdin)
	for commands.Scan() {
		w := strings.Fields(commands.Text())
		if len(w) == 1 && w[0] == "quit" {
			return nil
		}
		var answer string
		if len(w) == 7 && w[0] == "run" {
			answer = run(roots, w[1:])
		} else {
			answer = "err unknown command: " + commands.Text()
		}
		fmt.Println(answer)
	}
	return commands.Err()
}

func run(roots *x509.CertPool, w []string) string {
	version, ok := versions[w[2]]
	count, err := strconv.Atoi(w[5])
	if !ok || err != nil {
		return "err bad run command"
	}
	address := net.JoinHostPort(w[0], w[1])
	answer := []string{"ok"}
	for i := 0; i < count; i++ {
		t, err := connection(roots, address, version, w[3] == "1", w[4] == "1")
		if err != nil {
			fmt.Fprintf(os.Stderr, "connection to %s (%s, nodelay %s, explicit %s): %v\n",
				address, w[2], w[3], w[4], err)
			t = -1
		}
		answer = append(answer, strconv.FormatInt(t, 10))
	}
	return strings.Join(answer, " ")
}

func connection(roots *x509.CertPool, address string, version uint16, nodelay, explicit bool) (int64, error) {
	config := &tls.Config{
		RootCAs:    roots,
		ServerName: "localhost",
		MinVersion: version,
		MaxVersion: version,
	}
	request := line('q')
	response := make([]byte, message)

	start := time.Now()
	raw, err := net.DialTimeout("tcp", address, timeout)
	if err != nil {
		return 0, err
	}
	conn := tls.Client(raw, config)
	defer conn.Close()
	if err := raw.(*net.TCPConn).SetNoDelay(nodelay); err != nil {
		return 0, err
	}
	if err := conn.SetDeadline(start.Add(timeout)); err != nil {
		return 0, err
	}
	if explicit {
		if err := conn.Handshake(); err != nil {
			return 0, err
		}
	}
	if _, err := conn.Write(request); err != nil {
		return 0, err
	}
	if _, err := io.ReadFull(conn, response); err != nil {
		return 0, err
	}
	elapsed := time.Since(start)

	if v := conn.ConnectionState().Version; v != version {
		return 0, fmt.Errorf("negotiated %s", tls.VersionName(v))
	}
	if response[message-1] != '\n' {
		return 0, errors.New("the response does not end with a newline")
	}
	return elapsed.Microseconds(), nil
}
