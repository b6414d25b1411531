import { AppConfig } from './config/environment.js';
import { createApp } from './app.factory.js';

const app = await createApp();
await app.listen(app.get(AppConfig).port);
