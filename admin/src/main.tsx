import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApiClient } from './api/client';
import { App } from './app';
import { Session } from './auth/session';
import { createTokenEndpoint } from './auth/token-endpoint';
import { createTusUploader } from './pages/content/files/uploads/tus-uploader';
import './styles.css';

const session = new Session(createTokenEndpoint(), sessionStorage);
const services = { session, api: createApiClient(session), uploader: createTusUploader(session) };

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App services={services} />
  </StrictMode>,
);
