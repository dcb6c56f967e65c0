//! HTTPS for organisers who have a certificate (`qiwang serve --tls-cert FILE --tls-key
//! FILE`): the certificate chain and its private key, PEM files, are read once when the
//! server starts (a bad file stops it before it prints an address), and every connection
//! is accepted by rustls (TLS 1.2 and 1.3, the ring provider's safe defaults) and then
//! served by hyper's HTTP/1 connection with the same router, headers and limits as plain
//! HTTP. Without these options the server stays HTTP on the hall network (docs/serve.md,
//! threat model).

use super::ServeError;
use axum::Router;
use axum::extract::ConnectInfo;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The certificate and key files of `--tls-cert` and `--tls-key`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsFiles {
    /// The certificate chain, PEM (the server's certificate first).
    pub cert: PathBuf,
    /// Its private key, PEM (PKCS #8, PKCS #1 or SEC1).
    pub key: PathBuf,
}

/// Which of the two files: the certificate of `--tls-cert` or the key of `--tls-key`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TlsFile {
    /// The certificate chain (`--tls-cert`).
    Cert,
    /// Its private key (`--tls-key`).
    Key,
}

/// What is wrong with a certificate or key file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TlsProblem {
    /// The certificate file holds no PEM certificate.
    NoCertificate,
    /// The key file holds no PEM private key.
    NoKey,
    /// rustls refused the pair (the key is not the certificate's, or of a kind it does
    /// not support).
    Refused,
}

/// How long a client has for its TLS handshake.
const HANDSHAKE: Duration = Duration::from_secs(10);

fn read(file: TlsFile, path: &Path) -> Result<Vec<u8>, ServeError> {
    std::fs::read(path).map_err(|error| ServeError::TlsRead {
        file,
        path: path.to_path_buf(),
        error,
    })
}

/// The server's TLS configuration from the files.
pub fn config(files: &TlsFiles) -> Result<Arc<rustls::ServerConfig>, ServeError> {
    let invalid = |path: &Path, problem| ServeError::TlsInvalid {
        path: path.to_path_buf(),
        problem,
    };
    let cert_pem = read(TlsFile::Cert, &files.cert)?;
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(&cert_pem)
        .collect::<Result<_, _>>()
        .map_err(|_| invalid(&files.cert, TlsProblem::NoCertificate))?;
    if certs.is_empty() {
        return Err(invalid(&files.cert, TlsProblem::NoCertificate));
    }
    let key = PrivateKeyDer::from_pem_slice(&read(TlsFile::Key, &files.key)?)
        .map_err(|_| invalid(&files.key, TlsProblem::NoKey))?;
    // rustls 0.23.48 marks the ring provider deprecated for lacking post-quantum key
    // exchange. Kept on purpose: aws-lc-rs, the alternative, needs cmake (and NASM on
    // Windows) to build, and a hall network's page traffic is not worth recording today
    // to decrypt decades later.
    #[allow(deprecated)]
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .and_then(|b| b.with_no_client_auth().with_single_cert(certs, key))
        .map_err(|_| invalid(&files.key, TlsProblem::Refused))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// Accepts connections on `listener` until the process ends: each one's TLS handshake
/// (at most [`HANDSHAKE`]), then HTTP/1 with `app`, which sees the client's address as
/// with plain HTTP (`ConnectInfo`).
pub(super) async fn serve(
    listener: tokio::net::TcpListener,
    app: Router,
    config: Arc<rustls::ServerConfig>,
) -> std::io::Result<()> {
    let acceptor = tokio_rustls::TlsAcceptor::from(config);
    loop {
        // Out of file descriptors and the like: wait a moment, as axum::serve does.
        let Ok((tcp, remote)) = listener.accept().await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let acceptor = acceptor.clone();
        let app = app.clone();
        tokio::spawn(async move {
            let Ok(Ok(tls)) = tokio::time::timeout(HANDSHAKE, acceptor.accept(tcp)).await else {
                return;
            };
            let service = app.layer(axum::Extension(ConnectInfo::<SocketAddr>(remote)));
            let service = hyper_util::service::TowerToHyperService::new(service);
            // A connection that ends badly ends only itself.
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(hyper_util::rt::TokioIo::new(tls), service)
                .await;
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_that_are_not_a_certificate_and_key_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (cert, key) = (dir.path().join("cert.pem"), dir.path().join("key.pem"));
        let files = TlsFiles {
            cert: cert.clone(),
            key: key.clone(),
        };
        assert!(
            matches!(config(&files), Err(ServeError::TlsRead { file: TlsFile::Cert, path, .. }) if path == cert)
        );
        // A certificate that reads, beside a key that does not: the key is named.
        let made = rcgen::generate_simple_self_signed(vec!["localhost".into()]).unwrap();
        std::fs::write(&cert, made.cert.pem()).unwrap();
        match config(&files) {
            Err(e @ ServeError::TlsRead { .. }) => {
                assert!(
                    matches!(&e, ServeError::TlsRead { file: TlsFile::Key, path, .. } if *path == key)
                );
                let en = crate::i18n::Localize::localize(&e, crate::i18n::Lang::En);
                assert!(
                    en.contains("private key file") && en.contains("--tls-key"),
                    "{en}"
                );
                let zh = crate::i18n::Localize::localize(&e, crate::i18n::Lang::Zh);
                assert!(zh.contains("私钥文件") && !zh.contains("证书"), "{zh}");
            }
            other => panic!("{other:?}"),
        }
        std::fs::write(&cert, "not a certificate\n").unwrap();
        std::fs::write(&key, "not a key\n").unwrap();
        assert!(matches!(
            config(&files),
            Err(ServeError::TlsInvalid {
                problem: TlsProblem::NoCertificate,
                ..
            })
        ));
    }
}
