class Worker:
    def run(self,
            jobs,
            retries=3):
        for job in jobs:

            self.do(job)
    # helpers below
    def helper(self,
               x):  # a comment with a colon:
        return x

    def other(self):
        return 0
