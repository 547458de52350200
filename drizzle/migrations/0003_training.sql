-- How a trained agent was trained (train --submit), as the client claimed it; every earlier run keeps null.
ALTER TABLE "runs" ADD COLUMN "training" jsonb;