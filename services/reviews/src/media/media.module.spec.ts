import { testConfig } from '@app/testing';
import { GridFsMediaStorage } from './gridfs-media-storage';
import { DiskMediaStorage, InMemoryMediaStorage } from './media-storage';
import { createMediaStorage } from './media.module';

describe('createMediaStorage', () => {
  it('picks memory for :memory:, disk for a data folder, GridFS for the MongoDB profile', () => {
    expect(createMediaStorage(testConfig())).toBeInstanceOf(InMemoryMediaStorage);
    expect(createMediaStorage(testConfig({ DATA_DIR: '/tmp/x' }))).toBeInstanceOf(DiskMediaStorage);
    // No connection is opened until the first upload or read.
    expect(createMediaStorage(testConfig({ STORE: 'mongo', MONGO_URL: 'mongodb://127.0.0.1:1' }))).toBeInstanceOf(GridFsMediaStorage);
  });
});
