class Worker:
    def run(self, jobs, retries=3):
        for job in jobs:
            self.do(job, retries)
    # helpers below
    def helper(self, x):
        return x * 2

    def other(self):
        return 0
