import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApiClient } from './api/client';
import { createUploader } from './api/uploads';
import { App } from './app';
import { Session } from './auth/session';
import { createTokenEndpoint } from './auth/token-endpoint';
import './styles.css';

const session = new Session(createTokenEndpoint(), sessionStorage);
const services = { session, api: createApiClient(session), uploader: createUploader(session) };

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App services={services} />
  </StrictMode>,
);
